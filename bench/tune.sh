#!/usr/bin/env bash
# tplab tune's benchmark: seed 000's shape (100 concurrent 1 s requests, 200 in all) on /sleep and /delay with the
# objective p99 < 1.2 s; prints the wall time, the answer and the tried values as Markdown rows for BENCHMARKS.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
./tplab --version >/dev/null   # build once, outside the timings

echo "| variant | wall time (s) | default meets | estimate | answer | highest failing | tried (min: p99 ms, meets) |"
echo "|---|---:|---|---:|---:|---:|---|"
for variant in sleep delay; do
  start=$(date +%s.%N)
  ./tplab tune --variant "$variant" -c 100 -n 200 --slo 'p99<1.2s' --results "$out/$variant" --format json 2>/dev/null > "$out/$variant.json" || true
  end=$(date +%s.%N)
  python3 - "$out/$variant.json" "$variant" "$(python3 -c "print(f'{$end - $start:.1f}')")" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
tried = ", ".join(f"{x['minThreads'] if x['minThreads'] is not None else 'default'}{' ' + x['knob'].split('.')[-1] if x['knob'] else ''}: {x['p99Ms']:.0f}{' ✓' if x['meets'] else ''}" for x in t["trials"])
est = t["estimate"]["threads"] if t["estimate"] else "–"
print(f"| {sys.argv[2]} | {sys.argv[3]} | {t['defaultMeets']} | {est} | {t['recommendedMinThreads'] if t['recommendedMinThreads'] is not None else '–'} | {t['highestFailingMinThreads'] if t['highestFailingMinThreads'] is not None else '–'} | {tried} |")
PY
done
