#!/usr/bin/env bash
# Long-watch memory: `tplab watch PID --interval 0.25s --format jsonl --output FILE` against an idle target for
# MINUTES, the watch's RSS read every 30 s, the slope over the second half (after start-up and JIT), and the output
# file checked whole at every reading (every line parses; a reader tailing it never sees half a record).
# Figures go to BENCHMARKS.md ("Long watches"). Usage: bench/watch-memory.sh [minutes]   (default 10)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes="${1:-10}"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build src/Tplab.Cli -c Release -v quiet -nologo | grep -E ' error ' || true
work="$(mktemp -d)"; trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
# A copy, so a rebuild during the long run cannot replace the files under the running watch.
cp -r src/Tplab.Cli/bin/Release/net10.0 "$work/cli"
tplab="dotnet $work/cli/tplab.dll"
$tplab serve --port 0 --no-db >"$work/serve.log" 2>&1 &
for _ in $(seq 1 100); do grep -q 'listening on' "$work/serve.log" && break; sleep 0.2; done
pid=$(grep -o 'target pid [0-9]*' "$work/serve.log" | grep -o '[0-9]*')
$tplab watch "$pid" --interval 0.25s --format jsonl --output "$work/watch.jsonl" --duration "$((minutes * 60 + 60))s" 2>/dev/null & watch=$!
sleep 5
# the dotnet process of the watch is $watch itself (dotnet runs tplab.dll in-process)
for i in $(seq 0 $((minutes * 2))); do
  rss=$(awk '/VmRSS/ {print $2}' /proc/$watch/status)
  lines=$(wc -l <"$work/watch.jsonl")
  bad=$(python3 -c 'import json,sys
n=0
for l in open(sys.argv[1]):
    try: json.loads(l)
    except Exception: n+=1
print(n)' "$work/watch.jsonl")
  echo "t=$((i * 30))s rss_kb=$rss lines=$lines unparsable=$bad"
  [ "$i" -lt $((minutes * 2)) ] && sleep 30
done
wait $watch || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
