#!/usr/bin/env bash
# Lab benchmarks: fidelity of `tplab run` on /delay (1,000 ms wait) at 100, 1,000 and 5,000 users, and the wall
# time of `tplab run` (quick) and, with --full, of `tplab run --full`. Prints Markdown rows for BENCHMARKS.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
./tplab --version >/dev/null   # build once, outside the timings

./tplab run --plan bench/lab-fidelity.yaml --results "$out/fidelity" --no-diagnose >/dev/null
python3 - "$out/fidelity" <<'PY'
import glob, json, sys
summary = json.load(open(glob.glob(sys.argv[1] + "/*/summary.json")[0]))
print("| users | requests | errors | mean − wait (ms) | p99 − wait (ms) | max − wait (ms) |")
print("|---:|---:|---:|---:|---:|---:|")
for s in summary["scenarios"]:
    load, wait = s["load"], s["waitMs"]
    lat = load["latencyMs"]
    users = s["scenario"].split("-")[1]
    print(f"| {users} | {load['requests']} | {load['failed']} | {lat['mean'] - wait:.1f} | {lat['p99'] - wait:.1f} | {lat['max'] - wait:.1f} |")
PY

time_run() {
  local start end
  start=$(date +%s.%N)
  ./tplab run "$@" --results "$out/wall" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.1f}')"
}
echo
echo "| command | wall time (s) |"
echo "|---|---:|"
echo "| \`./tplab run\` | $(time_run) |"
if [ "${1:-}" = "--full" ]; then
  echo "| \`./tplab run --full\` | $(time_run --full) |"
fi
