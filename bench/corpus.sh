#!/usr/bin/env bash
# Accuracy of diagnose and watch on apps they never saw: every endpoint of the corpus shop (tests/corpus/ShopApp) on a
# fresh process under 48 users, diagnose with a 5 s capture; then one service with 1,000 pool threads blocked.
# Prints the Markdown table of BENCHMARKS.md ("Diagnose on foreign apps"). Usage: bench/corpus.sh [CAPTURE_SECONDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build tests/Tplab.Tests -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
report="$(mktemp)"
TPLAB_BENCH=1 TPLAB_CORPUS_CAPTURE="${1:-5}" TPLAB_CORPUS_REPORT="$report" dotnet test tests/Tplab.Tests -c Release --no-build \
  --filter "FullyQualifiedName~CorpusBenchmark" --logger "console;verbosity=quiet" >/dev/null 2>&1 || true
python3 - "$report" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cases = [r for r in rows if 'case' in r]
print("| endpoint | illness | where | diagnose said | watch said | right | capture | answer | req/s during capture |")
print("|---|---|---|---|---|:-:|---:|---:|---:|")
for r in cases:
    print(f"| `{r['case']}` | {r['illness']} | {r['where']} | {r['said']} | {r['pool']} | {'yes' if r['right'] else 'NO: ' + '; '.join(r['differences'])} | {r['captureSeconds']:.1f} s | {r['answerSeconds']:.1f} s | {r['throughput']:.0f} |")
blocking = [r for r in cases if r['illness'] == 'Blocking']
other = [r for r in cases if r['illness'] != 'Blocking']
def right(rs): return sum(1 for r in rs if r['right'])
answers = sorted(r['answerSeconds'] for r in cases)
print()
print(f"blocking endpoints right: {right(blocking)}/{len(blocking)}; healthy and CPU-bound right: {right(other)}/{len(other)}; "
      f"answer for a {cases[0]['captureSeconds']:.0f} s capture: median {answers[len(answers)//2]:.1f} s, max {answers[-1]:.1f} s" if cases else "no case ran")
for r in rows:
    if 'thousand' in r:
        print(r['thousand'])
PY
rm -f "$report"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
