#!/usr/bin/env bash
# Benchmarks tplab load against its peers on this machine, in one run against one target:
#   1. throughput, closed loop, 50 users, 10 s on the trivial endpoint /: tplab vs wrk, hey, ab (ratios)
#   2. open-loop accuracy at 1,000 and 5,000 req/s for 10 s: achieved/target rate and send-lag p99
#   3. agreement with ab on /delay?ms=100, 1,000 requests, 100 concurrent: mean and p50
# Usage: bench/load.sh [seconds]   (default 10). Prints a Markdown block for BENCHMARKS.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs="${1:-10}"
scripts/install-deps.sh bench
dotnet build src/Tplab.Cli/Tplab.Cli.csproj -c Release --nologo -v quiet -clp:ErrorsOnly >/dev/null
tplab=(dotnet "$root/src/Tplab.Cli/bin/Release/net10.0/tplab.dll")
work="$(mktemp -d)"
serve_pid=""
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"${tplab[@]}" serve --port 0 --no-db >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.2; done
base="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.out" | head -1)"
[ -n "$base" ] || { echo "bench: the target did not start" >&2; cat "$work/serve.err" >&2; exit 3; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, d))" "$@"; }

# Warm the target (JIT, connections) so the first tool measured is not penalised.
wrk -t2 -c50 -d3s "$base" >/dev/null

echo "## Load generator: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), .NET $(dotnet --version)"
echo
echo "### 1. Throughput, closed loop, 50 users, ${secs} s, GET / (req/s)"
"${tplab[@]}" load "$base" -c 50 --duration "${secs}s" --quiet --format json --output "$work/t.json"
t=$(json "$work/t.json" "round(throughputPerSecond)")
w=$(wrk -t2 -c50 -d"${secs}s" "$base" | awk '/Requests\/sec/ {print int($2)}')
h=$(hey -c 50 -z "${secs}s" "$base" | awk '/Requests\/sec/ {print int($2)}')
a=$(ab -q -k -c 50 -t "$secs" -n 10000000 "$base" 2>/dev/null | awk '/Requests per second/ {print int($4)}')
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
echo
echo "| tool | req/s | tplab / tool |"
echo "|---|---:|---:|"
echo "| tplab | $t | 1.00 |"
echo "| wrk (-t2) | $w | $(ratio "$t" "$w") |"
echo "| hey | $h | $(ratio "$t" "$h") |"
echo "| ab -k | $a | $(ratio "$t" "$a") |"
echo
echo "### 2. Open-loop accuracy, GET /, ${secs} s"
echo
echo "| target req/s | achieved req/s | achieved / target | send lag p50 ms | send lag p99 ms | late sends (> 2 ms) |"
echo "|---:|---:|---:|---:|---:|---:|"
for rate in 1000 5000; do
  "${tplab[@]}" load "$base" --rate "$rate" --duration "${secs}s" --quiet --format json --output "$work/o.json"
  echo "| $rate | $(json "$work/o.json" "achievedRate") | $(json "$work/o.json" "f'{achievedRate/targetRate:.4f}'") | $(json "$work/o.json" "sendLagMs['p50']") | $(json "$work/o.json" "sendLagMs['p99']") | $(json "$work/o.json" "f'{lateSends} of {requests}'") |"
done
echo
echo "### 3. Agreement with ab, /delay?ms=100, 1,000 requests, 100 concurrent (ms)"
# Warm /delay first (route JIT, the target's pool at 100 concurrent): otherwise whichever tool runs first pays for it.
wrk -t2 -c100 -d3s "${base}delay?ms=100" >/dev/null
"${tplab[@]}" load "${base}delay?ms=100" -n 1000 -c 100 --no-keepalive --quiet --format json --output "$work/d.json"
ab -c 100 -n 1000 "${base}delay?ms=100" >"$work/ab.txt" 2>/dev/null
abmean=$(awk '/^Total:/ {print $3}' "$work/ab.txt")
abp50=$(awk '/^ +50%/ {print $2}' "$work/ab.txt")
tmean=$(json "$work/d.json" "latencyMs['mean']")
tp50=$(json "$work/d.json" "latencyMs['p50']")
echo
echo "| figure | tplab | ab | tplab / ab |"
echo "|---|---:|---:|---:|"
echo "| mean | $tmean | $abmean | $(ratio "$tmean" "$abmean") |"
echo "| p50 | $tp50 | $abp50 | $(ratio "$tp50" "$abp50") |"
