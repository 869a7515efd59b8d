#!/usr/bin/env bash
# The suite's bench rows: cases that take the very path of a case ./test.sh runs (each names it in its comment), so
# they prove nothing more there and are left out of the README's test command (issue 36 §4, "keep only end-to-end
# tests that prove something no cheaper test does"): INT beside TERM where a group's signal reaches tplab alone, a
# kill by pid beside the group's, diagnose variants of a kind another case diagnoses. Run them after a change to
# signals, guardians or diagnose's stacks.
# Usage: bench/suite-rows.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-deps.sh test
dotnet build tests/Tplab.Tests -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
TPLAB_BENCH=1 dotnet test tests/Tplab.Tests -c Release --no-build \
  --filter "Category=BenchRow" --logger "console;verbosity=normal"
