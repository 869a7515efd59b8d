#!/usr/bin/env bash
# Tplab.Analyzers against `tplab scan`, site by site, on every corpus app (tests/corpus/scan-truth.json), and the
# analyzer's build cost. Per app: `./tplab scan FOLDER --format json` and a real `dotnet build` of the app with the
# package's analyzer and code fixes added as a user's package adds them (an <Analyzer> item through CustomAfterMicrosoftCommonTargets; a build
# configuration of its own, so the repository's obj/ and bin/ are untouched); the sites (file:line:column, TPL id,
# finding id) of both are compared, the analyzer's from the compiler's ErrorLog, and what the console prints counted. With --cost N: the median of N `dotnet build --no-incremental` with and without
# the analyzer (alternating), the analyzer's share of the build. Prints Markdown (BENCHMARKS.md, "Tplab.Analyzers").
# Usage: bench/analyzer-vs-scan.sh [--cost N] [APP...]   (default: every app of the truth file, no cost runs)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$PWD"
cost=0
if [ "${1:-}" = "--cost" ]; then cost="$2"; shift 2; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
: > "$work/differences.txt"

# The package as a user gets it: its analyzers/dotnet/cs must hold the analyzer and the code fixes, nothing else.
dotnet pack src/Tplab.Analyzers -c Release -nologo -v q -o "$work/package" >/dev/null
listing="$(unzip -Z1 "$work/package/Tplab.Analyzers.0.1.0.nupkg" | grep '^analyzers/' | sort | tr '\n' ' ')"
[ "$listing" = "analyzers/dotnet/cs/Tplab.Analyzers.CodeFixes.dll analyzers/dotnet/cs/Tplab.Analyzers.dll " ] \
  || { echo "analyzer-vs-scan: the package's analyzers/ holds: $listing" >&2; exit 1; }
unzip -q -o "$work/package/Tplab.Analyzers.0.1.0.nupkg" 'analyzers/*' -d "$work/package"
printf '<Project><ItemGroup><Analyzer Include="%s" /><Analyzer Include="%s" /></ItemGroup></Project>\n' \
  "$work/package/analyzers/dotnet/cs/Tplab.Analyzers.dll" "$work/package/analyzers/dotnet/cs/Tplab.Analyzers.CodeFixes.dll" > "$work/with.targets"
printf '<Project />\n' > "$work/without.targets"

mapfile -t apps < <(python3 -c '
import json, sys
for app in json.load(open("tests/corpus/scan-truth.json"))["apps"]:
    if len(sys.argv) == 1 or app["name"] in sys.argv[1:]:
        print(app["name"] + "\t" + app["project"])' "$@")
[ "${#apps[@]}" -gt 0 ] || { echo "analyzer-vs-scan: no app of tests/corpus/scan-truth.json matches: $*" >&2; exit 2; }

build() { # project targets log [more build arguments] -> seconds of wall time
  local start end
  start=$(date +%s.%N)
  dotnet build "$1" -c TplabAnalyzer --no-incremental -nologo -clp:NoSummary -p:TreatWarningsAsErrors=false \
    -p:CustomAfterMicrosoftCommonTargets="$2" "${@:4}" > "$3" 2>&1 || { echo "analyzer-vs-scan: the build of $1 failed (log: $3)" >&2; cat "$3" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}

echo "package: $listing"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); .NET SDK $(dotnet --version)"
echo
# The analyzer's sites are read from the compiler's own log of every diagnostic (ErrorLog, SARIF 2.1): an info
# (TPL0011, scan's note) is reported like the warnings but MSBuild does not print it in the console (dotnet/roslyn#1508);
# the last column counts what `dotnet build` prints, and the sites it leaves out are listed below the table.
echo "| app | scan sites | analyzer sites (ErrorLog) | same | only scan | only analyzer | printed by dotnet build |"
echo "|---|---|---|---|---|---|---|"
for entry in "${apps[@]}"; do
  name="${entry%%$'\t'*}"; project="$repo/${entry#*$'\t'}"; folder="$(dirname "$project")"
  ./tplab scan "$folder" --format json -o "$work/$name.json" >/dev/null 2>&1 || true
  build "$project" "$work/with.targets" "$work/$name.log" "-p:ErrorLog=$work/$name.sarif%2Cversion=2.1" >/dev/null
  python3 - "$work/$name.json" "$work/$name.log" "$folder" "$name" "$work/differences.txt" "$work/$name.sarif" > "$work/$name.diff" <<'PY'
import json, os, re, sys, urllib.parse
# scan's JSON words for BlockingKind, in the enum's order (CodePlace.KindId): TPL id = "TPL" + (index + 1).
kinds = ["sleep", "sync-over-async", "lock", "sync-wait", "sync-database-io", "sync-http", "sync-socket-io", "sync-stream-io", "unrecognised-wait", "parallel", "task-run"]
scan = {f"{f['file']}:{f['line']}:{f['column']} TPL{kinds.index(f['blockingKind']) + 1:04d} {f['id']}" for f in json.load(open(sys.argv[1]))["findings"]}
pattern = re.compile(r"^(?P<file>[^\s(][^(\n]*)\((?P<line>\d+),(?P<column>\d+)\): (?:warning|error|info) (?P<id>TPL\d{4}): .*\(tplab fix --finding (?P<finding>tp-[0-9a-f]{10})\)", re.M)
printed = {f"{os.path.relpath(m['file'], sys.argv[3])}:{m['line']}:{m['column']} {m['id']} {m['finding']}" for m in pattern.finditer(open(sys.argv[2]).read())}
finding = re.compile(r"\(tplab fix --finding (tp-[0-9a-f]{10})\)")
built, levels = set(), {}
for result in json.load(open(sys.argv[6], encoding="utf-8-sig"))["runs"][0].get("results", []):
    if not result["ruleId"].startswith("TPL0") or result.get("suppressions"):
        continue  # another analyzer's, TPL0100 (an unreadable summary), or suppressed in source (#pragma, [SuppressMessage])
    place = result["locations"][0]["physicalLocation"]
    path = urllib.parse.unquote(urllib.parse.urlparse(place["artifactLocation"]["uri"]).path)
    site = f"{os.path.relpath(path, sys.argv[3])}:{place['region']['startLine']}:{place['region']['startColumn']} {result['ruleId']} {finding.search(result['message']['text'])[1]}"
    built.add(site)
    levels[site] = result.get("level", "warning")
print(f"| {sys.argv[4]} | {len(scan)} | {len(built)} | {len(scan & built)} | {len(scan - built)} | {len(built - scan)} | {len(printed & built)} |")
with open(sys.argv[5], "a") as differences:
    for s in sorted(scan - built): print(f"{sys.argv[4]} only scan:     {s}", file=differences)
    for s in sorted(built - scan): print(f"{sys.argv[4]} only analyzer: {s}", file=differences)
    for s in sorted(built - printed): print(f"{sys.argv[4]} not printed by dotnet build ({levels[s]}): {s}", file=differences)
    for s in sorted(printed - built): print(f"{sys.argv[4]} printed, not in the ErrorLog: {s}", file=differences)
PY
  cat "$work/$name.diff"
done
if [ -s "$work/differences.txt" ]; then echo; echo '```'; cat "$work/differences.txt"; echo '```'; fi

if [ "$cost" -gt 0 ]; then
  echo
  echo "| app | build without (median of $cost, s) | with the analyzer (s) | analyzer's share |"
  echo "|---|---|---|---|"
  for entry in "${apps[@]}"; do
    name="${entry%%$'\t'*}"; project="$repo/${entry#*$'\t'}"
    without=(); with=()
    for _ in $(seq "$cost"); do
      without+=("$(build "$project" "$work/without.targets" "$work/cost.log")")
      with+=("$(build "$project" "$work/with.targets" "$work/cost.log")")
    done
    python3 -c "
import statistics, sys
a = statistics.median(map(float, sys.argv[2].split())); b = statistics.median(map(float, sys.argv[3].split()))
print(f'| {sys.argv[1]} | {a:.1f} | {b:.1f} | {(b - a) / a * 100:+.0f}% |')" "$name" "${without[*]}" "${with[*]}"
  done
fi
