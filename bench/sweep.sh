#!/usr/bin/env bash
# The bad-input sweep of issue 21: ~200 inputs a new user would try, through the real CLI, under C, de_DE, fr_FR and
# tr_TR; counts internal errors, stack traces, hangs, undocumented exit codes, errors longer than a line, raw control
# characters and changes of meaning. Exit 1 when any is found. Usage: bench/sweep.sh [TPLAB_COMMAND...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -eq 0 ]; then
  dotnet build "$root/src/Tplab.Cli/Tplab.Cli.csproj" -c Release -v quiet -clp:ErrorsOnly >/dev/null
  dotnet build "$root/src/Tplab.Analyzers/Tplab.Analyzers.csproj" -c Release -v quiet -clp:ErrorsOnly >/dev/null
fi
exec python3 "$root/bench/sweep.py" "$@"
