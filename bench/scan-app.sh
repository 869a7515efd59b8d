#!/usr/bin/env bash
# tplab scan on one large public application (bench, not CI): what it reports and what it costs.
# Copies APP (app checkouts may be read-only, and a restore writes obj/), names its commit, then scans it
# once per format (json, sarif, text) under /usr/bin/time -v: the first run pays the restore. Prints a Markdown table:
# sites (= findings), entry point × site pairs (what the report would hold at one finding per pair), errors and
# warnings, each file's size (SARIF also gzipped: GitHub's upload limit is 10 MB gzipped), wall, CPU (user + sys, the
# scan with its build host and restore) and peak RSS per run.
# Usage: bench/scan-app.sh APP_DIR [SOLUTION (relative to APP_DIR; default: what tplab finds)]
# Example: bench/scan-app.sh "$APPS/jellyfin" Jellyfin.sln (APPS: the folder of your app checkouts; see BENCHMARKS.md)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="${1:?usage: bench/scan-app.sh APP_DIR [SOLUTION]}"
solution="${2:-}"
[ -d "$app" ] || { echo "bench: no folder $app" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 3; }
command -v python3 >/dev/null || { echo "bench: python3 is missing" >&2; exit 3; }
"$root/tplab" --version >/dev/null
tplab=(dotnet "$root/.build/app/tplab.dll")
commit=$(git -C "$app" rev-parse --short=8 HEAD 2>/dev/null || echo "unknown")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$app" "$work/app"
target="$work/app${solution:+/$solution}"

# One scan: prints "wall cpu peakMB exit".
scan_once() {
  local out="$1"
  /usr/bin/time -v -o "$work/time" "${tplab[@]}" scan "$target" --allow-partial -o "$out" >/dev/null 2>"$work/err.$(basename "$out")" && code=0 || code=$?
  [ -s "$out" ] || { echo "bench: tplab scan failed (exit $code): $(tail -n 3 "$work/err.$(basename "$out")")" >&2; exit 1; }
  local wall user sys peak
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$work/time")
  user=$(awk -F': ' '/User time/ {print $2}' "$work/time")
  sys=$(awk -F': ' '/System time/ {print $2}' "$work/time")
  peak=$(awk -F': ' '/Maximum resident set size/ {print int($2/1024)}' "$work/time")
  echo "$wall $(echo "$user + $sys" | bc) $peak $code"
}

size() { python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1])/1e6:.2f} MB')" "$1"; }

json=$(scan_once "$work/scan.json")
sarif=$(scan_once "$work/scan.sarif")
text=$(scan_once "$work/scan.txt")
read -r sites pairs errors warnings entry reaching partial < <(python3 - "$work/scan.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
print(len(d["findings"]), sum(f["rootCount"] for f in d["findings"]), s["errors"], s["warnings"], s["entryPoints"], s["entryPointsReachingSites"],
      f'{len(d["projects"]["skipped"])}/{len(d["projects"]["readInPart"])}')
PY
)
gz=$(gzip -c "$work/scan.sarif" | wc -c | awk '{printf "%.2f MB", $1/1e6}')
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$work/scan.txt")

echo "tplab scan of $(basename "$app") at $commit, $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg) at the end"
echo
echo "| sites (findings) | entry point × site pairs | errors / warnings | entry points (reaching a site) | projects skipped / read in part |"
echo "|---:|---:|---:|---:|---:|"
echo "| $sites | $pairs | $errors / $warnings | $entry ($reaching) | $partial |"
echo
echo "| run | report size | wall s | CPU s | peak MB | exit |"
echo "|---|---:|---:|---:|---:|---:|"
row() { read -r wall cpu peak code <<<"$2"; echo "| $1 | $3 | $wall | $cpu | $peak | $code |"; }
row "json (first: restores)" "$json" "$(size "$work/scan.json")"
row "sarif" "$sarif" "$(size "$work/scan.sarif") ($gz gzipped)"
row "text" "$text" "$(size "$work/scan.txt"), longest line $longest"
