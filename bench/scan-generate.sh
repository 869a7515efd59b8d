#!/usr/bin/env bash
# Generates a solution COPIES times the size of this repository's own (the projects tplab scan analyses there:
# Tplab.Core, Tplab.Scan, Tplab.Cli, Tplab.Target, Tplab.OrdersService, ShopApp), for bench/scan.sh's growth figure.
# Each copy keeps the repository's layout (so project references and Directory.*.props resolve inside it); one
# .slnx lists every copy's projects. Usage: bench/scan-generate.sh OUT_FOLDER [COPIES]   (default 10)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: bench/scan-generate.sh OUT_FOLDER [COPIES]}"
copies="${2:-10}"
[[ "$copies" =~ ^[1-9][0-9]?$ ]] || { echo "bench: COPIES must be a whole number from 1 to 99, got '$copies'" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
projects=(src/Tplab.Core/Tplab.Core.csproj src/Tplab.Scan/Tplab.Scan.csproj src/Tplab.Target/Tplab.Target.csproj src/Tplab.Cli/Tplab.Cli.csproj
  tests/Tplab.OrdersService/Tplab.OrdersService.csproj tests/corpus/ShopApp/ShopApp.csproj)
{
  echo "<Solution>"
  for i in $(seq 1 "$copies"); do
    copy="$out/copy$i"
    mkdir -p "$copy"
    # One solution folder per copy: a solution may not hold two projects of one name in one folder.
    echo "  <Folder Name=\"/copy$i/\">"
    cp "$root/Directory.Build.props" "$root/Directory.Packages.props" "$root/global.json" "$copy/"
    for p in "${projects[@]}"; do
      dir="$(dirname "$p")"
      mkdir -p "$copy/$dir"
      (cd "$root/$dir" && tar --exclude=./bin --exclude=./obj -cf - .) | (cd "$copy/$dir" && tar -xf -)
      echo "    <Project Path=\"copy$i/$p\" />"
    done
    echo "  </Folder>"
  done
  echo "</Solution>"
} >"$out/Generated.slnx"
echo "$out/Generated.slnx"
