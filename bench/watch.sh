#!/usr/bin/env bash
# Watch benchmark: the target's req/s on /delay with no watch, a 1 s and a 0.25 s watch (interleaved rounds),
# and the time from onset to the starving verdict. Figures go to BENCHMARKS.md ("Watch").
# Usage: bench/watch.sh [rounds]   (default 3; each round ~20 s)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build bench/Tplab.Bench -c Release -v quiet -nologo | grep -E 'error|Warn' || true
TPLAB_BENCH=1 TPLAB_BENCH_ROUNDS="${1:-3}" dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~WatchBenchmark" --logger "console;verbosity=detailed" 2>&1 | grep -E 'overhead|latency|Passed|Failed' 
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
