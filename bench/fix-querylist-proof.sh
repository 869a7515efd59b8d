#!/usr/bin/env bash
# The proof by running of fix's QueryListRewrite: bench/FixQueryListProof (EF Core 10 on SQLite) runs RemoveRange(query)
# as written and as tplab rewrites it on the same seeded database and paths, and prints one Markdown row per path
# (answer or exception type; tickets left; SQL commands sent). Built in a scratch folder, away from the repository's
# Directory.Build.props and central package versions. Exit 1 when a path differs.
# Usage: bench/fix-querylist-proof.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d /tmp/tplab-querylist.XXXXXX)"
for f in Directory.Build.props Directory.Build.targets Directory.Packages.props; do echo '<Project />' > "$work/$f"; done
cp "$here/FixQueryListProof/Program.cs" "$here/FixQueryListProof/FixQueryListProof.csproj" "$work/"
dotnet build "$work" -c Release -nologo -v q >"$work/build.log" 2>&1 || { echo "does not build: $work/build.log" >&2; exit 1; }
echo "| path | RemoveRange(query) | RemoveRange(await query.ToListAsync()) | |"
echo "|---|---|---|---|"
dotnet "$work/bin/Release/net10.0/FixQueryListProof.dll"
