#!/usr/bin/env bash
# The measured scheduling delay against the target's own Server-Timing "waited for a thread", on the seed experiments:
# each scenario on a fresh target under closed-loop load (tplab load, 60 users) while `tplab watch --delay continuous`
# records. Prints, per scenario, the measured delay (per work item: mean, p99 of the interval p99s, the longest wait
# still in progress), the estimate (queue ÷ completed/s, median), and the load's "waited for a thread" (per request:
# p50, p99), then how far apart starving and healthy are on each. Usage: bench/watch-delay.sh [SECONDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DURATION="${1:-10}"
[[ "$DURATION" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number" >&2; exit 2; }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
./tplab --help >/dev/null
# The build ./tplab made, run directly: a source edited during the run must not rebuild it under the measurement.
app="$PWD/.build/app/tplab.dll"
tplab() { dotnet "$app" "$@"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
scenario() { # $1 name, $2 path, $3 users
  local port; port="$(free_port)"
  dotnet "$app" serve --no-db --port "$port" >"$work/serve.log" 2>&1 &
  local serve=$!
  for _ in $(seq 1 60); do grep -q "listening on" "$work/serve.log" 2>/dev/null && break; sleep 0.5; done
  local target; target="$(grep -o 'target pid [0-9]*' "$work/serve.log" | awk '{print $3}')"
  dotnet "$app" watch "$target" --delay continuous --interval 0.5s --format jsonl -o "$work/$1.jsonl" --duration "$((DURATION + 4))s" 2>/dev/null &
  local watch=$!
  sleep 2
  tplab load "http://127.0.0.1:$port$2" -c "$3" --duration "${DURATION}s" -q --format json -o "$work/$1.json" >/dev/null 2>&1 || true
  wait "$watch" || true
  kill "$serve" 2>/dev/null || true; wait "$serve" 2>/dev/null || true
}
scenario sleep "/sleep?ms=500" 60
scenario http-result "/http-result?ms=500" 60
scenario delay "/delay?ms=500" 60
scenario hello "/" 60
python3 - "$work" <<'PY'
import json, os, statistics as st, sys
work = sys.argv[1]
rows = {}
for name in ["sleep", "http-result", "delay", "hello"]:
    samples = [json.loads(l) for l in open(os.path.join(work, name + ".jsonl")) if '"type":"sample"' in l]
    load = json.load(open(os.path.join(work, name + ".json")))
    busy = [s for s in samples if s["completedPerSecond"] > 0 or s["queueLength"] > 0]
    measured = [s["delay"] for s in busy if s.get("delay") and s["delay"]["count"] > 0]
    n = sum(d["count"] for d in measured)
    mean = sum(d["meanMs"] * d["count"] for d in measured) / n if n else float("nan")
    p99 = max((d["p99Ms"] for d in measured), default=float("nan"))
    oldest = max((s["delay"]["oldestWaitingMs"] for s in busy if s.get("delay")), default=0)
    unpaired = sum(s["delay"]["unpaired"] for s in busy if s.get("delay"))
    est = [s["estimatedDelayMs"] for s in busy if s.get("estimatedDelayMs") is not None]
    waited = load["handlerTiming"]["waitedForThreadMs"] if load.get("handlerTiming") else {}
    verdict = [l for l in open(os.path.join(work, name + ".jsonl")) if '"type":"summary"' in l]
    rows[name] = dict(n=n, mean=mean, p99=p99, oldest=oldest, unpaired=unpaired, est=st.median(est) if est else float("nan"),
                      w50=waited.get("p50", float("nan")), w99=waited.get("p99", float("nan")), rps=load["throughputPerSecond"],
                      verdict=json.loads(verdict[0])["verdict"] if verdict else "?")
print("| scenario | watch verdict | req/s | measured: waits | mean | p99 (max of intervals) | oldest in progress | unpaired | estimate (median) | Server-Timing waited p50 | p99 |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for k, r in rows.items():
    print(f"| {k} | {r['verdict']} | {r['rps']:.0f} | {r['n']:,} | {r['mean']:.2f} ms | {r['p99']:.1f} ms | {r['oldest']:.0f} ms | {r['unpaired']} | {r['est']:.1f} ms | {r['w50']:.2f} ms | {r['w99']:.1f} ms |")
def ratio(a, b): return a / b if b else float("inf")
starving = [rows["sleep"], rows["http-result"]]; healthy = [rows["delay"], rows["hello"]]
for key, label in [("mean", "measured mean"), ("p99", "measured p99"), ("w50", "waited p50"), ("w99", "waited p99"), ("est", "estimate")]:
    lo = min(r[key] for r in starving); hi = max(r[key] for r in healthy)
    print(f"{label}: lowest starving {lo:.2f} ms vs highest healthy {hi:.2f} ms: x{ratio(lo, hi):.1f}")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
