#!/usr/bin/env bash
# Accuracy of diagnose and watch on apps they never saw: every endpoint of the corpus shop (tests/corpus/ShopApp) on a
# fresh process under 48 users, diagnose with a 5 s capture, judged part by part (endpoint, method, call, place, chain,
# lines), and a dump taken under the same load compared with the live answer; then the answer time while a healthy
# endpoint keeps the cores busy, the cost of the TPL's task events, and one service with 1,000 pool threads blocked.
# Prints the Markdown of BENCHMARKS.md ("Diagnose on foreign apps: file, line and the whole chain", "Answer time and
# cost"). Usage: bench/corpus.sh [CAPTURE_SECONDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build bench/Tplab.Bench -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
report="$(mktemp)"
TPLAB_BENCH=1 TPLAB_CORPUS_CAPTURE="${1:-5}" TPLAB_CORPUS_REPORT="$report" dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~CorpusBenchmark|FullyQualifiedName~TplEventsCost" --logger "console;verbosity=quiet" >/dev/null 2>&1 || true
python3 - "$report" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cases = [r for r in rows if 'case' in r]
def mark(ok): return 'right' if ok else '**wrong**'
print("| endpoint | where | diagnose said (chain, file:line of each hop) | endpoint | method | call | place | chain | lines | dump agrees | answer (capture) | machine busy |")
print("|---|---|---|:-:|:-:|:-:|:-:|:-:|:-:|:-:|---:|---:|")
for r in cases:
    p = r.get('parts')
    if p is None:
        said = r['said'] + ('' if r['right'] else ' — **wrong**: ' + '; '.join(r['differences']))
        print(f"| `{r['case']}` | {r['where']} ({r['illness']}) | {said} | | | | | | | | {r['answerSeconds']:.1f} s ({r['captureSeconds']:.1f} s) | {r['machineBusyPercent']:.0f}% |")
        continue
    dump = ('yes' if not r['dumpDifferences'] else '**no**: ' + '; '.join(r['dumpDifferences'])) if r['dumpTaken'] else 'not taken'
    said = (r['chain'] or r['said']) + ('' if r['right'] else ' — ' + '; '.join(r['differences']))
    print(f"| `{r['case']}` | {r['where']} | {said} | {mark(p['endpoint'])} | {mark(p['method'])} | {mark(p['call'])} | {mark(p['place'])} | {mark(p['chain'])} | {mark(p['line'])} | {dump} | {r['answerSeconds']:.1f} s ({r['captureSeconds']:.1f} s) | {r['machineBusyPercent']:.0f}% |")
blocking = [r for r in cases if r['illness'] == 'Blocking']
other = [r for r in cases if r['illness'] != 'Blocking']
def count(key): return sum(1 for r in blocking if r['parts'][key])
answers = sorted(r['answerSeconds'] for r in cases)
print()
if cases:
    print(f"blocking endpoints: {len(blocking)}; right: endpoint {count('endpoint')}, method {count('method')}, call {count('call')}, place {count('place')}, "
          f"chain {count('chain')}, lines {count('line')}; all parts right on {sum(1 for r in blocking if r['right'])}/{len(blocking)}; "
          f"healthy and CPU-bound right: {sum(1 for r in other if r['right'])}/{len(other)}")
    taken = [r for r in blocking if r['dumpTaken']]
    print(f"dump agrees with live (endpoint, method, call, chain, lines) on {sum(1 for r in taken if not r['dumpDifferences'])}/{len(taken)} blocking endpoints")
    print(f"answer for a {cases[0]['captureSeconds']:.0f} s capture: median {answers[len(answers)//2]:.1f} s, max {answers[-1]:.1f} s; "
          f"machine busy during the captures: median {sorted(r['machineBusyPercent'] for r in cases)[len(cases)//2]:.0f}%")
    phases = [r['answerPhases'] for r in cases if r.get('answerPhases')]
    if phases:
        def med(k): v = sorted(p[k] for p in phases); return v[len(v)//2]
        print(f"after the capture, median: rundown {med('rundown'):.1f} s, reading the trace {med('read'):.1f} s, analysis {med('analyse'):.1f} s")
else:
    print("no case ran")
for r in rows:
    if 'busyAnswer' in r:
        print("busy machine: " + r['busyAnswer'])
for r in rows:
    if 'tplCost' in r:
        print(f"TPL task events: {r['tplCost']}: {r['reqPerSecond']:.0f} req/s, {r['eventsPerSecond']:.0f} events/s ({r['tplPerSecond']:.0f} TPL's)")
for r in rows:
    if 'thousand' in r:
        print(r['thousand'])
PY
rm -f "$report"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
