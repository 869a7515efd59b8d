#!/usr/bin/env bash
# Benchmark of `tplab diagnose`: time from command to answer, and the target's throughput during the capture
# compared with the same window without it. Usage: bench/diagnose.sh [ROUTE] [CONCURRENCY] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet build src/Tplab.Cli -c Release -v q -nologo >/dev/null
exec dotnet run bench/diagnose-bench.cs -c Release -- "$PWD/src/Tplab.Cli/bin/Release/net10.0/tplab.dll" "${1:-/delay?ms=5}" "${2:-32}" "${3:-3}"
