#!/usr/bin/env bash
# The incremental scan's whole edit sequence (issue 35's list: a body, a blocking call added and removed, an endpoint,
# a DI registration, <DefineConstants> and a source under it, a call that does not resolve, a package added and its
# version changed, a file deleted and another added), every step's cached report compared with a fresh full scan's.
# The suite runs one edit of each kind (IncrementalScanTests); this runs them all (about 20 MSBuild loads).
# Usage: bench/scan-incremental-sequence.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dotnet build bench/Tplab.Bench -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
TPLAB_BENCH=1 dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~IncrementalSequenceBenchmark" --logger "console;verbosity=normal"
