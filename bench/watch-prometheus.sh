#!/usr/bin/env bash
# How soon a starving verdict reaches Prometheus: a real Prometheus (Debian's) scraping `tplab watch --prometheus`
# every SCRAPE seconds while a fresh target is flooded (60 users on /sleep?ms=1000). Per round: flood start → the
# verdict on tplab's own endpoint (polled every 50 ms) → the first sample Prometheus stored with it (its scrape time).
# The goal: Prometheus has it within one scrape interval plus one sample interval of the watch's own verdict.
# Usage: bench/watch-prometheus.sh   (ROUNDS=5 SCRAPE=1 INTERVAL=1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS="${ROUNDS:-5}"; SCRAPE="${SCRAPE:-1}"; INTERVAL="${INTERVAL:-1}"
[[ "$ROUNDS" =~ ^[0-9]+$ && "$SCRAPE" =~ ^[0-9]+$ && "$INTERVAL" =~ ^[0-9]+$ ]] || { echo "ROUNDS, SCRAPE and INTERVAL must be whole numbers" >&2; exit 2; }
command -v prometheus >/dev/null || { echo "needs Debian's prometheus (scripts/install-deps.sh test)" >&2; exit 1; }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); scrape ${SCRAPE}s, sample ${INTERVAL}s"
./tplab --help >/dev/null
# The build ./tplab made, run directly: a source edited during the run must not rebuild it under the measurement.
app="$PWD/.build/app/tplab.dll"
tplab() { dotnet "$app" "$@"; }
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
metrics="$(free_port)"; web="$(free_port)"
cat >"$work/prometheus.yml" <<YML
global: { scrape_interval: ${SCRAPE}s }
scrape_configs:
  - job_name: tplab-watch
    static_configs: [ { targets: ['127.0.0.1:$metrics'] } ]
YML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" --web.listen-address="127.0.0.1:$web" --log.level=warn >"$work/prom.log" 2>&1 &
pids+=($!)
for r in $(seq 1 "$ROUNDS"); do
  port="$(free_port)"
  dotnet "$app" serve --no-db --port "$port" >"$work/serve.log" 2>&1 &
  serve=$!; pids+=($serve)
  for _ in $(seq 1 60); do grep -q "listening on" "$work/serve.log" 2>/dev/null && break; sleep 0.5; done
  target="$(grep -o 'target pid [0-9]*' "$work/serve.log" | awk '{print $3}')"
  dotnet "$app" watch "$target" --prometheus "127.0.0.1:$metrics" --interval "${INTERVAL}s" --format jsonl -o /dev/null --duration 40s 2>/dev/null &
  watch=$!; pids+=($watch)
  sleep 4
  python3 - "$port" "$metrics" "$web" "$target" >>"$work/rounds.txt" <<'PY'
import json, socket, subprocess, sys, time, urllib.parse, urllib.request
port, metrics, web, pid = sys.argv[1:]
flood = subprocess.Popen(["dotnet", ".build/app/tplab.dll", "load", f"http://127.0.0.1:{port}/sleep?ms=1000", "-c", "60", "--duration", "20s", "-q", "--format", "json", "-o", "/dev/null"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
start = time.time(); seen = None; stored = None
sel = f'tplab_pool_verdict{{verdict="starving",pid="{pid}"}}'
while time.time() - start < 25 and stored is None:
    if seen is None:
        try:
            text = urllib.request.urlopen(f"http://127.0.0.1:{metrics}/metrics", timeout=2).read().decode()
            if any(l.startswith("tplab_pool_verdict{") and f'pid="{pid}"' in l and 'verdict="starving"' in l and l.endswith(" 1") for l in text.splitlines()):
                seen = time.time()
        except OSError:
            pass
    q = urllib.parse.quote(sel + "[60s]")
    data = json.load(urllib.request.urlopen(f"http://127.0.0.1:{web}/api/v1/query?query={q}", timeout=2))["data"]["result"]
    for series in data:
        ones = [float(t) for t, v in series["values"] if v == "1"]
        if ones:
            stored = min(ones)
    time.sleep(0.05)
flood.wait()
print(json.dumps({"verdict": None if seen is None else seen - start, "prometheus": None if stored is None else stored - start,
                  "lag": None if seen is None or stored is None else stored - seen}))
PY
  tail -1 "$work/rounds.txt"
  kill "$watch" "$serve" 2>/dev/null || true; wait "$watch" "$serve" 2>/dev/null || true
done
python3 - "$work/rounds.txt" "$SCRAPE" "$INTERVAL" <<'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
scrape, interval = float(sys.argv[2]), float(sys.argv[3])
ok = [r for r in rows if r["lag"] is not None]
print(f"rounds with both: {len(ok)}/{len(rows)}")
if ok:
    print(f"flood start → verdict on tplab's endpoint: median {st.median(r['verdict'] for r in ok):.2f} s, max {max(r['verdict'] for r in ok):.2f} s")
    print(f"flood start → first stored in Prometheus: median {st.median(r['prometheus'] for r in ok):.2f} s, max {max(r['prometheus'] for r in ok):.2f} s")
    lag = [r['lag'] for r in ok]
    print(f"verdict → Prometheus: median {st.median(lag):.2f} s, max {max(lag):.2f} s; goal ≤ scrape + sample = {scrape + interval:.0f} s: {'met' if max(lag) <= scrape + interval else 'NOT met'} in every round" if max(lag) <= scrape + interval else
          f"verdict → Prometheus: median {st.median(lag):.2f} s, max {max(lag):.2f} s; goal ≤ {scrape + interval:.0f} s NOT met in {sum(1 for l in lag if l > scrape + interval)} rounds")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
