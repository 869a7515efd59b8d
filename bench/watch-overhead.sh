#!/usr/bin/env bash
# The cost of `tplab watch` to the process it watches, at 20,000 requests/s (open loop, tplab load): ROUNDS alternating
# rounds without and with the watch (scheduling delay in its default sampled mode, --prometheus serving, jsonl to
# /dev/null). Per round: the target's CPU per request (from /proc/PID/stat) and the requests it answered per second;
# with the watch, the watcher's own CPU and peak memory. Prints the medians and the overhead; the machine's load
# before and after, since a shared machine moves these figures.
# Usage: bench/watch-overhead.sh   (ROUNDS=5 RATE=20000 DURATION=10 DELAY=sampled|continuous|off)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS="${ROUNDS:-5}"; RATE="${RATE:-20000}"; DURATION="${DURATION:-10}"; DELAY="${DELAY:-sampled}"
[[ "$ROUNDS" =~ ^[0-9]+$ && "$RATE" =~ ^[0-9]+$ && "$DURATION" =~ ^[0-9]+$ ]] || { echo "ROUNDS, RATE and DURATION must be whole numbers" >&2; exit 2; }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); rounds $ROUNDS at $RATE/s for ${DURATION}s, delay $DELAY"
./tplab --help >/dev/null
# The build ./tplab made, run directly: a source edited during the run must not rebuild it under the measurement.
app="$PWD/.build/app/tplab.dll"
tplab() { dotnet "$app" "$@"; }
work="$(mktemp -d)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ticks() { awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
port="$(free_port)"
dotnet "$app" serve --no-db --port "$port" >"$work/serve.log" 2>&1 &
serve=$!
trap 'kill "$serve" 2>/dev/null || true; wait "$serve" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 60); do grep -q "listening on" "$work/serve.log" 2>/dev/null && break; sleep 0.5; done
target="$(grep -o 'target pid [0-9]*' "$work/serve.log" | awk '{print $3}')"
[ -n "$target" ] || { echo "the target did not start: $(cat "$work/serve.log")" >&2; exit 1; }
hz="$(getconf CLK_TCK)"
# Warm the target (JIT, connections) before measuring.
tplab load "http://127.0.0.1:$port/" --rate "$RATE" --duration 5s -q --format json -o "$work/warm.json" >/dev/null 2>&1 || true
round() { # $1 = off|on, $2 = round number
  local watcher="" wt0=0 wt1=0 rss=0
  if [ "$1" = on ]; then
    dotnet "$app" watch "$target" --format jsonl -o /dev/null --delay "$DELAY" --prometheus "127.0.0.1:$(free_port)" --duration 10m 2>"$work/watch.err" &
    watcher=$!
    sleep 3
    kill -0 "$watcher" 2>/dev/null || echo "the watch ended early: $(cat "$work/watch.err")" >&2
    wt0="$(ticks "$watcher")"
  fi
  local t0; t0="$(ticks "$target")"
  tplab load "http://127.0.0.1:$port/" --rate "$RATE" --duration "${DURATION}s" -q --format json -o "$work/round.json" >/dev/null 2>&1 || true
  local t1; t1="$(ticks "$target")"
  if [ -n "$watcher" ]; then
    local wp="$watcher"
    wt1="$(ticks "$wp")"
    rss="$(awk '/VmHWM/ {print $2}' "/proc/$wp/status" 2>/dev/null || echo 0)"
    kill -TERM "$watcher" 2>/dev/null || true  # not INT: a background job of a script ignores SIGINT
    wait "$watcher" 2>/dev/null || true
  fi
  python3 - "$work/round.json" "$1" "$2" "$((t1 - t0))" "$((wt1 - wt0))" "$rss" "$hz" "$DURATION" >>"$work/rounds.jsonl" <<'PY'
import json, sys
f, mode, n, target, watcher, rss, hz, seconds = sys.argv[1:]
d = json.load(open(f))
ok = d["succeeded"]
print(json.dumps({"mode": mode, "round": int(n), "rps": ok / d["durationSeconds"], "targetCpuUsPerRequest": int(target) / int(hz) * 1e6 / max(ok, 1),
                  "targetCpuPercent": int(target) / int(hz) / float(seconds) * 100, "watcherCpuPercent": int(watcher) / int(hz) / float(seconds) * 100,
                  "watcherPeakMB": int(rss) / 1024, "late": d.get("lateSends", 0), "failed": d["failed"]}))
PY
}
for r in $(seq 1 "$ROUNDS"); do
  # Alternate which goes first, so a machine getting busier or calmer does not favour one side.
  if [ $((r % 2)) -eq 1 ]; then round off "$r"; round on "$r"; else round on "$r"; round off "$r"; fi
  tail -2 "$work/rounds.jsonl"
done
python3 - "$work/rounds.jsonl" <<'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
off = [r for r in rows if r["mode"] == "off"]; on = [r for r in rows if r["mode"] == "on"]
m = lambda rs, k: st.median(r[k] for r in rs)
print(f"| | without watch | with watch | overhead |")
print(f"|---|---:|---:|---:|")
print(f"| answered req/s (median) | {m(off,'rps'):,.0f} | {m(on,'rps'):,.0f} | {(m(on,'rps') / m(off,'rps') - 1) * 100:+.1f}% |")
print(f"| target CPU per request (median) | {m(off,'targetCpuUsPerRequest'):.1f} µs | {m(on,'targetCpuUsPerRequest'):.1f} µs | {(m(on,'targetCpuUsPerRequest') / m(off,'targetCpuUsPerRequest') - 1) * 100:+.1f}% |")
print(f"| target CPU (median) | {m(off,'targetCpuPercent'):.0f}% of a core | {m(on,'targetCpuPercent'):.0f}% of a core | |")
print(f"| watcher CPU / peak memory (median) | | {m(on,'watcherCpuPercent'):.1f}% of a core / {m(on,'watcherPeakMB'):.0f} MB | |")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
