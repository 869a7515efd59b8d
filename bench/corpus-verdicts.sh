#!/usr/bin/env bash
# The pool verdict at the start of a load (issue 29): every healthy and starving corpus endpoint ROUNDS times, each
# watch judged by the rule as it is and replayed under the rule as it was (a queue at one sample enough). Prints
# the per-run lines and the Markdown table of BENCHMARKS.md ("The verdict at the start of a load").
# Usage: bench/corpus-verdicts.sh [ROUNDS] [STARVING_ROUNDS]   (default 10 each; a healthy round is ~20 s, a starving one ~2.5 min)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build bench/Tplab.Bench -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
TPLAB_BENCH=1 TPLAB_VERDICT_ROUNDS="${1:-10}" TPLAB_VERDICT_STARVING_ROUNDS="${2:-${1:-10}}" dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~CorpusVerdictBenchmark" --logger "console;verbosity=detailed" 2>&1 \
  | sed -n 's/^ *\(.* round [0-9]*: .*\)$/\1/p; s/^ *\(|.*\)$/\1/p'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
