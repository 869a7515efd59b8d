#!/usr/bin/env bash
# The cost of one latency Record on the event loop: tplab's hand-ported histogram (as it was at PORT_REV, default the
# last commit before the switch to HdrHistogram.NET) against HdrHistogram.NET 2.5.0, in one process, alternating rounds,
# so a shared machine slows both alike. Prints a Markdown table (ns per Record, median and range of 11 rounds).
# Usage: bench/histogram-record.sh [PORT_REV]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev="${1:-0af5fc9}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$root/bench/histogram-record/Program.cs" "$root/bench/histogram-record/HistogramRecord.csproj" "$work/"
cp "$root/Directory.Build.props" "$root/Directory.Packages.props" "$work/"
git -C "$root" show "$rev:src/Tplab.Core/Load/Histograms/LatencyHistogram.cs" | sed 's/^namespace Tplab.Load.Histograms;/namespace Port;/' >"$work/Port.cs"
grep -q 'private readonly long\[\] _counts' "$work/Port.cs" || { echo "bench: $rev does not hold the hand-ported histogram" >&2; exit 2; }
dotnet build "$work/HistogramRecord.csproj" -c Release -o "$work/out" --nologo -v quiet -clp:ErrorsOnly >&2
echo "Record cost, ns per value (median of 11 alternating rounds, range), port at $rev, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| values | port | HdrHistogram.NET 2.5.0 | difference |"
echo "|---|---:|---:|---:|"
dotnet "$work/out/HistogramRecord.dll"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
