#!/usr/bin/env bash
# Speed and memory of `tplab scan` (the ./tplab build, ReadyToRun): this repository's own solution, then generated
# solutions 1, 5 and COPIES times its size (bench/scan-generate.sh) to show how time grows with size. Each scan runs
# ROUNDS times after one warm-up (the first run of a solution pays its restore and the disk cache); medians printed.
# Wall time, CPU time (user + sys, the scan and its build host) and peak RSS from /usr/bin/time.
# Usage: bench/scan.sh [COPIES] [ROUNDS]   (defaults 10 and 3). Prints Markdown for BENCHMARKS.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
copies="${1:-10}"
rounds="${2:-3}"
[[ "$rounds" =~ ^[1-9][0-9]?$ ]] || { echo "bench: ROUNDS must be a whole number from 1 to 99, got '$rounds'" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 3; }
"$root/tplab" --version >/dev/null
tplab=(dotnet "$root/.build/app/tplab.dll")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# One scan: prints "wall cpu peakMB files entrypoints methods".
scan_once() {
  local target="$1" json="$work/scan.json"
  rm -f "$json"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "${tplab[@]}" scan "$target" --allow-partial -o "$json" 2>"$work/err" || true
  [ -s "$json" ] || { echo "bench: tplab scan $target failed: $(tail -n 3 "$work/err")" >&2; exit 1; }
  # /usr/bin/time puts "Command exited with non-zero status N" first when the scan exits 11 or 12.
  read -r wall user sys peak < <(tail -n 1 "$work/time")
  local entry methods
  entry=$(grep -o '"entryPoints": [0-9]*' "$json" | grep -o '[0-9]*$')
  methods=$(grep -o '"methodsFollowed": [0-9]*' "$json" | grep -o '[0-9]*$')
  echo "$wall $(echo "$user + $sys" | bc) $((peak / 1024)) $entry $methods"
}

measure() {
  local name="$1" target="$2" files
  files=$(find "$(dirname "$target")" -name '*.cs' -not -path '*/obj/*' -not -path '*/bin/*' | wc -l)
  scan_once "$target" >/dev/null   # warm-up: restore, disk cache
  for _ in $(seq 1 "$rounds"); do scan_once "$target"; done >"$work/runs"
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$files" \
    "$(cut -d' ' -f4 "$work/runs" | head -1)" "$(cut -d' ' -f5 "$work/runs" | head -1)" \
    "$(cut -d' ' -f1 "$work/runs" | median)" "$(cut -d' ' -f2 "$work/runs" | median)" "$(cut -d' ' -f3 "$work/runs" | median)"
}

echo "tplab scan, $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg) at start, medians of $rounds runs"
echo
echo "| solution | .cs files in its folder | entry points | methods followed | wall s | CPU s | peak MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
measure "this repository (Tplab.slnx)" "$root/Tplab.slnx"
for n in 1 5 "$copies"; do
  target=$(bench/scan-generate.sh "$work/gen$n" "$n")
  measure "generated, $n× the analysed projects" "$target"
  rm -rf "$work/gen$n"
done
