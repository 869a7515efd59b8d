#!/usr/bin/env bash
# VSTHRD002/VSTHRD103 (Microsoft.VisualStudio.Threading.Analyzers) on a large application's own compilations, beside
# tplab scan, on the hand-checked recall list of bench/judged/APP.md (issue 26 §Goals: "in the same table"). The apps do
# not build here (the NuGet copy misses packages), so the analyzers run through the Roslyn workspace API
# (bench/scan-vsthrd: MSBuildWorkspace, the package's analyzer DLLs, the two rules raised to warnings) on the same
# projects tplab reads. A recall site counts as found by VSTHRD when it reports that file at its line or up to 6 lines
# below (the lists give the statement's first line; VSTHRD points at the blocking member of a multi-line call); tplab's
# column is the list's own hand check where the row has one, else the same match on TPLAB_JSON.
# Usage: [ROWS=2-12,14-16] [VSTHRD_TXT=FILE] bench/scan-vsthrd.sh APP_DIR SOLUTION JUDGED_MD [TPLAB_JSON]
#   APP_DIR: a restored copy (tplab scan restores on its first run); TPLAB_JSON: tplab scan's JSON of the same copy.
# Example: bench/scan-vsthrd.sh /tmp/jf Jellyfin.sln bench/judged/jellyfin.md /tmp/jf.json
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
app="${1:?usage: bench/scan-vsthrd.sh APP_DIR SOLUTION JUDGED_MD [TPLAB_JSON]}"
sln="${2:?solution}"
judged="${3:?judged markdown}"
tplab_json="${4:-}"
version=18.12.1
analyzers="${NUGET_PACKAGES:-$HOME/.nuget/packages}/microsoft.visualstudio.threading.analyzers/$version/analyzers/cs"
[ -d "$analyzers" ] || { echo "bench: $analyzers missing (dotnet restore a project referencing Microsoft.VisualStudio.Threading.Analyzers $version)" >&2; exit 3; }
out="$(mktemp -d /tmp/tplab-scan-vsthrd.XXXXXX)"
if [ -n "${VSTHRD_TXT:-}" ]; then
  # VSTHRD_TXT=FILE: the diagnostics of an earlier run (its vsthrd.txt), matched again without running the analyzers.
  cp "$VSTHRD_TXT" "$out/vsthrd.txt"
else
  dotnet build "$here/bench/scan-vsthrd" -c Release -nologo -v q >"$out/build.log" 2>&1 || { echo "bench/scan-vsthrd does not build: $out/build.log" >&2; exit 1; }
  /usr/bin/time -v -o "$out/time" dotnet "$here/bench/scan-vsthrd/bin/Release/net10.0/ScanVsthrd.dll" "$app/$sln" "$analyzers" VSTHRD002 VSTHRD103 >"$out/vsthrd.txt" 2>"$out/vsthrd.err"
  echo "VSTHRD $version on $(basename "$app"): $(wc -l <"$out/vsthrd.txt") diagnostics ($out/vsthrd.txt), CPU $(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$out/time") s, load $(cut -d' ' -f1 /proc/loadavg)"
fi
python3 - "$judged" "$out/vsthrd.txt" "$tplab_json" <<'PY'
import json, re, sys
judged, vsthrd, tplab = sys.argv[1], sys.argv[2], sys.argv[3]
# Recall rows: "| n | path.cs:line[, line...] | what | ... | scan |" (a row may list several lines of one file).
# ROWS="2-12,14-16,18" instead: those rows of the judged table (| n | sev | path.cs:line | call | ...), where the recall
# list is given as row numbers (bench/judged/btcpayserver.md).
import os
rows = set()
for part in filter(None, os.environ.get("ROWS", "").split(",")):
    lo, _, hi = part.partition("-")
    rows.update(range(int(lo), int(hi or lo) + 1))
sites = []
for row in open(judged, encoding="utf-8"):
    m = re.match(r"\|\s*[\d–-]+\s*\|\s*([^|:]+\.cs):([\d, ]+)\|([^|]*)\|", row)
    if rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        site = next((i for i, c in enumerate(cells) if re.fullmatch(r"[^:]+\.cs:\d+", c)), None)
        if cells and cells[0].isdigit() and int(cells[0]) in rows and site is not None:
            path, line = cells[site].rsplit(":", 1)
            sites.append((path, int(line), cells[site + 1] if site + 1 < len(cells) else "", None))
    elif m:
        # The row's last cell is the hand check of tplab ("found", "**missed**: ..."): it is tplab's column.
        last = row.strip().strip("|").split("|")[-1].strip().lstrip("*").lower()
        judged_scan = True if last.startswith("found") else False if last.startswith("missed") else None
        for line in re.findall(r"\d+", m.group(2)):
            sites.append((m.group(1).strip(), int(line), m.group(3).strip(), judged_scan))
found = {}
for l in open(vsthrd, encoding="utf-8"):
    path, line, _, rule = l.strip().rsplit(":", 3)
    found.setdefault((path, int(line)), set()).add(rule)
ours = set()
if tplab:
    for f in json.load(open(tplab))["findings"]:
        ours.add((f["file"], f["line"]))
def near(p, l, path, line):
    return p.endswith(path) and line <= l <= line + 6
def hit(path, line, table):
    return any(near(p, l, path, line) for (p, l) in table)
print(f"| site | what | VSTHRD002/103 | tplab |")
print("|---|---|---|---|")
n = v = t = 0
for path, line, what, judged_scan in sites:
    n += 1
    rules = sorted(set().union(*[r for (p, l), r in found.items() if near(p, l, path, line)]) or [])
    # tplab: the judged file's hand check where the row has one (a line window can miss a long chain's member), else the JSON.
    tt = judged_scan if judged_scan is not None else hit(path, line, ours) if tplab else None
    v += bool(rules); t += bool(tt)
    print(f"| {path}:{line} | {what} | {', '.join(rules) or 'missed'} | {'' if tt is None else ('found' if tt else 'missed')} |")
print(f"\nrecall on {n} hand-checked sites: VSTHRD002/103 {v}/{n} ({100*v//max(n,1)}%), tplab {t}/{n} ({100*t//max(n,1)}%)")
PY
