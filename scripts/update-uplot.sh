#!/usr/bin/env bash
# Refreshes the vendored uPlot in the report assets from the npm registry.
set -euo pipefail
version="${1:-1.6.32}"
dest="$(cd "$(dirname "$0")/.." && pwd)/src/Tplab.Core/Reports/Html/Assets"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "uplot@$version" --silent >/dev/null && tar xzf "uplot-$version.tgz")
cp "$tmp/package/dist/uPlot.iife.min.js" "$tmp/package/dist/uPlot.min.css" "$dest/"
cp "$tmp/package/LICENSE" "$dest/uPlot.LICENSE"
echo "uPlot $version copied to $dest"
