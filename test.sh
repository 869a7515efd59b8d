#!/usr/bin/env bash
# The test command: installs what the tests need when it is missing, builds the solution, then runs every test in it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$root"
scripts/install-deps.sh test
# The browser check of report.html (playwright-core) and the schema checks of every output (ajv, the SARIF schema).
for dir in tests/browser tests/schemas; do
  if [ -f "$dir/package.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
# The build first, then the tests on what it built: the two times are measured apart (BENCHMARKS.md, "The suite's time").
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
built=$(date +%s)
dotnet build Tplab.slnx -c Release
build_seconds=$(($(date +%s) - built))
build_load="$(load)"
log="$(mktemp)"
started=$(date +%s)
set +e
# The trx keeps each test's start and end: bench/suite-lanes.py reads the lanes' spans from it.
dotnet test Tplab.slnx -c Release --no-build --logger "console;verbosity=normal" \
  --logger "trx;LogFileName=$root/artifacts/suite.trx" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
ended=$(date +%s)
# One closing line in the plain form CI reads: "N passed, N failed".
# grep finds no "Failed:" line when nothing failed; that must not end the script under pipefail.
passed=$( (grep -Eo 'Passed: +[0-9]+' "$log" || true) | awk '{s+=$2} END {print s+0}')
failed=$( (grep -Eo 'Failed: +[0-9]+' "$log" || true) | awk '{s+=$2} END {print s+0}')
# CI keeps only the tail of the output: name the failed tests and their first message lines again here.
if grep -qE '^ +Failed [A-Za-z]' "$log"; then
  echo "The failed tests:"
  awk '/^ +Failed [A-Za-z]/ {show=1; n=0} /^ +Stack Trace:/ {show=0} show && n < 8 {print; n++}' "$log"
fi
rm -f "$log"
# The suite's time in CI logs (BENCHMARKS.md, "The suite's time"): the build's wall time, then the tests' alone.
awk -v s="$build_seconds" -v l="$build_load" 'BEGIN {printf "build: %d s wall (%.1f min), load average %s at the end\n", s, s / 60, l}'
awk -v s="$((ended - started))" -v l="$(load)" \
  'BEGIN {printf "dotnet test: %d s wall (%.1f min), load average %s at the end\n", s, s / 60, l}'
echo "$passed passed, $failed failed"
exit "$status"
