#!/usr/bin/env bash
# Behaviour kept by tplab fix, measured: the differential harness (tests/Tplab.Tests/Scan/Fix/Differential) on each
# corpus app — a copy built as it is and a copy built after `tplab fix --apply`, both started (Release, real Kestrel,
# each on its own loopback port), every fixed endpoint called on its success, error and cancellation paths, 16 at once,
# answers and side effects compared. Prints the Markdown of BENCHMARKS.md ("Fix: behaviour kept"), then each
# difference, fixed endpoint not called and refusal.
# Usage: bench/fix-differential.sh [APP_FOLDER...]
#        (default: tests/corpus/FixProbes tests/corpus/ShopApp tests/corpus/ScanCases tests/Tplab.OrdersService)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(tests/corpus/FixProbes tests/corpus/ShopApp tests/corpus/ScanCases tests/Tplab.OrdersService)
folders=""
for app in "${apps[@]}"; do folders="$folders:$(cd "$app" && pwd)"; done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet build bench/Tplab.Bench -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
report="$(mktemp)"
TPLAB_BENCH=1 TPLAB_DIFFERENTIAL_APPS="${folders#:}" TPLAB_DIFFERENTIAL_REPORT="$report" dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~FixDifferentialBenchmark" --logger "console;verbosity=quiet" >/dev/null 2>&1 || true
cat "$report"
