#!/usr/bin/env bash
# watch --on-starving benchmark: from the moment a /sleep flood starts (the queue starts growing at once: 40 loops
# of a 500 ms Thread.Sleep on a 2-thread pool) to the moment the diagnosis file exists, on a fresh target each round.
# Also: the first sample with a queue, the first starving sample, and the file's culprit. Figures go to BENCHMARKS.md
# ("Watch trigger"). Usage: bench/trigger.sh [rounds] [interval]   (default 5 rounds, 0.25s; each round ~25 s)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-5}"; interval="${2:-0.25s}"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build src/Tplab.Cli -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
work="$(mktemp -d)"; trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
# A copy, so a rebuild meanwhile cannot replace the files under the running watch.
cp -r src/Tplab.Cli/bin/Release/net10.0 "$work/cli"
tplab="dotnet $work/cli/tplab.dll"
now() { date +%s.%N; }
for r in $(seq 1 "$rounds"); do
  $tplab serve --port 0 --no-db >"$work/serve.log" 2>&1 & serve=$!
  for _ in $(seq 1 100); do grep -q 'listening on' "$work/serve.log" && break; sleep 0.2; done
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" | head -1); pid=$(grep -o 'target pid [0-9]*' "$work/serve.log" | grep -o '[0-9]*')
  curl -s "${url}sleep?ms=0" >/dev/null; curl -s "${url}" >/dev/null
  file="$work/diag-$r.json"
  $tplab watch "$pid" --interval "$interval" --format jsonl --output "$work/watch-$r.jsonl" --on-starving "diagnose=$file" --duration 25s 2>"$work/watch-$r.err" & watch=$!
  sleep 2
  start=$(now)
  hey -z 20s -c 40 "${url}sleep?ms=500" >/dev/null 2>&1 & load=$!
  while [ ! -f "$file" ] && [ "$(echo "$(now) - $start < 30" | bc)" = 1 ]; do sleep 0.05; done
  exists=$(now)
  wait $watch || true; kill $load 2>/dev/null || true; wait $load 2>/dev/null || true
  kill $serve; wait $serve 2>/dev/null || true
  # Offsets in the jsonl are from the watch's start; the flood started 2 s (plus startup) later: use the first queue instead.
  python3 - "$work/watch-$r.jsonl" "$file" "$(echo "$exists - $start" | bc)" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
samples = [r for r in rows if r.get("type") == "sample"]
queue = next((s["offsetSeconds"] for s in samples if s["queueLength"] > 0), None)
starving = next((s["offsetSeconds"] for s in samples if s["verdict"] == "starving"), None)
d = json.load(open(sys.argv[2]))
top = d["culprits"][0]["blockingCall"] + " in " + (d["culprits"][0]["userFrame"] or "?") if d["culprits"] else "none"
print(f"flood start -> file {float(sys.argv[3]):.2f} s; first queue -> starving verdict {starving - queue:.2f} s; capture {d['captureSeconds']} s, answer {d['answerSeconds']} s; culprit: {top}")
PY
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
