#!/usr/bin/env bash
# Recall and precision of static blocking detection on the corpus apps (tests/corpus/scan-truth.json): the field's
# analyzers run as users run them, and `tplab scan` when this build has it. Prints the Markdown of BENCHMARKS.md's
# "scan: recall and precision against the peers" and writes it to artifacts/scan-peers/report.md.
#
# The peers: each app is copied, unchanged, into a scratch folder with the repository's build settings, plus what a
# user adds to switch them on: a Directory.Build.props that references Microsoft.VisualStudio.Threading.Analyzers and
# Meziantou.Analyzer (restored from the package registry like any package), and an .editorconfig that raises CA1849,
# VSTHRD002/103/104 and MA0042/MA0045 to warnings. One build per app writes the compiler's SARIF log (ErrorLog); the
# analyzers do not interact, and each row counts only its own rule ids. tplab: `./tplab scan PROJECT --format sarif`
# on the app in place. Usage: bench/scan-peers.sh [APP...]   (default: every app of the truth file)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$PWD"

vsthrd_version=18.12.1
meziantou_version=3.0.321
out="$repo/artifacts/scan-peers"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rm -rf "$out" && mkdir -p "$out"

# The apps: name and project, from the truth file.
mapfile -t apps < <(python3 -c '
import json, sys
for app in json.load(open("tests/corpus/scan-truth.json"))["apps"]:
    if len(sys.argv) == 1 or app["name"] in sys.argv[1:]:
        print(app["name"] + "\t" + app["project"])' "$@")
[ "${#apps[@]}" -gt 0 ] || { echo "scan-peers: no app of tests/corpus/scan-truth.json matches: $*" >&2; exit 2; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); .NET SDK $(dotnet --version)"
echo "peers: Microsoft.VisualStudio.Threading.Analyzers $vsthrd_version, Meziantou.Analyzer $meziantou_version, CA1849 of the .NET SDK $(dotnet --version)"

# tplab's analyzer package, packed by this build and added as a user's package adds it (its analyzers/dotnet/cs).
dotnet pack src/Tplab.Analyzers -c Release -nologo -v q -o "$work/package" >/dev/null
unzip -q -o "$work/package/Tplab.Analyzers.0.1.0.nupkg" 'analyzers/*' -d "$work/package"
tplab_analyzers="$work/package/analyzers/dotnet/cs"

# The user's additions, in a scratch tree that mirrors the repository's layout (so the SARIF paths end like the truth's).
copy="$work/repo"
mkdir -p "$copy"
cp global.json "$copy/"
cp Directory.Build.props "$copy/Directory.Build.repo.props"
cat > "$copy/Directory.Build.props" <<EOF
<Project>
  <Import Project="Directory.Build.repo.props" />
  <ItemGroup>
    <PackageReference Include="Microsoft.VisualStudio.Threading.Analyzers" PrivateAssets="all" />
    <PackageReference Include="Meziantou.Analyzer" PrivateAssets="all" />
    <Analyzer Include="$tplab_analyzers/Tplab.Analyzers.dll" />
    <Analyzer Include="$tplab_analyzers/Tplab.Analyzers.CodeFixes.dll" />
  </ItemGroup>
</Project>
EOF
sed "s#</ItemGroup>#  <PackageVersion Include=\"Microsoft.VisualStudio.Threading.Analyzers\" Version=\"$vsthrd_version\" />\n    <PackageVersion Include=\"Meziantou.Analyzer\" Version=\"$meziantou_version\" />\n  </ItemGroup>#" \
  Directory.Packages.props > "$copy/Directory.Packages.props"
cat > "$copy/.editorconfig" <<'EOF'
root = true

[*.cs]
dotnet_diagnostic.CA1849.severity = warning
dotnet_diagnostic.VSTHRD002.severity = warning
dotnet_diagnostic.VSTHRD103.severity = warning
dotnet_diagnostic.VSTHRD104.severity = warning
dotnet_diagnostic.MA0042.severity = warning
dotnet_diagnostic.MA0045.severity = warning
EOF

manifest="$out/manifest.tsv"
: > "$manifest"
for entry in "${apps[@]}"; do
  IFS=$'\t' read -r app project <<<"$entry"
  folder="$(dirname "$project")"
  mkdir -p "$copy/$folder"
  (cd "$folder" && tar --exclude=./bin --exclude=./obj -cf - .) | (cd "$copy/$folder" && tar -xf -)
  log="$out/peers-$app.sarif"
  echo "peers: building $app with the analyzers..."
  # ReportAnalyzer: the compiler's time per analyzer assembly, written at detailed verbosity (read below).
  if ! dotnet build "$copy/$project" -c Release -nologo -v:d -nodeReuse:false -p:TreatWarningsAsErrors=false -p:ReportAnalyzer=true \
      "-p:ErrorLog=$log%2Cversion=2.1" >"$out/peers-$app.build.log" 2>&1; then
    echo "peers: the build of $app failed (its log: $out/peers-$app.build.log)" >&2
  fi
  # An analyzer the compiler could not load reports nothing at all: say so rather than count it as silence.
  grep -hoE "(CS8032|CS9057|AD0001)[^[]*" "$out/peers-$app.build.log" | sort -u | sed "s/^/peers: $app: /" || true
  printf 'vs-threading %s\tVSTHRD002,VSTHRD103,VSTHRD104\t%s\t%s\n' "$vsthrd_version" "$app" "$log" >>"$manifest"
  printf 'CA1849 (SDK %s)\tCA1849\t%s\t%s\n' "$(dotnet --version)" "$app" "$log" >>"$manifest"
  printf 'Meziantou %s\tMA0042,MA0045\t%s\t%s\n' "$meziantou_version" "$app" "$log" >>"$manifest"
  printf 'tplab analyzer (Tplab.Analyzers)\tTPL00*\t%s\t%s\n' "$app" "$log" >>"$manifest"
done

# tplab's row, when this build has the scan command.
# `tplab scan --help` exits 0 even without the command: ask the command list instead (read whole: grep -q would stop
# reading, and tplab's SIGPIPE would fail the pipeline under pipefail, as if there were no scan command).
if ./tplab --help 2>/dev/null | grep -E '^ +scan( |$)' >/dev/null; then
  for entry in "${apps[@]}"; do
    IFS=$'\t' read -r app project <<<"$entry"
    log="$out/tplab-$app.sarif"
    echo "tplab: scanning $app..."
    start=$(date +%s%N)
    status=0
    ./tplab scan "$project" --format sarif -o "$log" >"$out/tplab-$app.log" 2>&1 || status=$?
    echo "tplab: $app scanned in $(( ($(date +%s%N) - start) / 1000000 )) ms (exit code $status)"
    printf 'tplab\t*\t%s\t%s\n' "$app" "$log" >>"$manifest"
  done
else
  printf 'tplab\t*\t*\t!not available: ./tplab has no scan command on this build\n' >>"$manifest"
fi

echo "judging..."
dotnet build bench/Tplab.Bench -c Release -nologo -v q -clp:ErrorsOnly >/dev/null
report="$out/report.md"
TPLAB_BENCH=1 TPLAB_SCAN_MANIFEST="$manifest" TPLAB_SCAN_REPORT="$report" dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~ScanPeersBenchmark" --logger "console;verbosity=minimal" >"$out/judge.log" 2>&1 \
  || { echo "scan-peers: the judge failed:" >&2; grep -A20 -m1 "Failed " "$out/judge.log" >&2; exit 1; }
# Each analyzer's cost per compilation (one compilation per app), from the compiler's ReportAnalyzer tables in the
# build log: the rules each row counts (one analyzer type each), tplab's generator apart, and the peers' whole assemblies.
python3 - "$out" "${apps[@]}" >>"$report" <<'PY'
import re, sys
out, apps = sys.argv[1], [a.split("\t")[0] for a in sys.argv[2:]]
rows = [("tplab: BlockingCallAnalyzer (TPL0001-TPL0011)", r"^Tplab\.Analyzers\.BlockingCallAnalyzer$"),
        ("tplab: SummaryGenerator (a library's summary)", r"^Tplab\.Analyzers\.Summaries\.SummaryGenerator$"),
        ("VSTHRD002", r"VSTHRD002UseJtfRunAnalyzer$"), ("VSTHRD103", r"VSTHRD103UseAsyncOptionAnalyzer$"),
        ("CA1849", r"UseAsyncMethodInAsyncContext$"), ("Meziantou MA0042/MA0045", r"DoNotUseBlockingCallInAsyncContextAnalyzer$"),
        ("all of vs-threading", r"^Microsoft\.VisualStudio\.Threading\.Analyzers(\.CSharp)?,"), ("all of Meziantou", r"^Meziantou\.Analyzer,")]
line = re.compile(r"^\s*(<?\d+(?:\.\d+)?)\s+<?\d+\s+(\S+(?:, Version=\S+)?)")
print("\n### Cost per compilation (the compiler's ReportAnalyzer, seconds; one build per app, all analyzers together)\n")
print("| analyzer | " + " | ".join(apps) + " |")
print("|---|" + "---|" * len(apps))
times = {}
for app in apps:
    for text in open(f"{out}/peers-{app}.build.log", errors="replace"):
        m = line.match(text)
        if m:
            for name, pattern in rows:
                if re.search(pattern, m[2]):
                    times[(name, app)] = times.get((name, app), 0) + (0.0005 if m[1].startswith("<") else float(m[1]))
for name, _ in rows:
    print(f"| {name} | " + " | ".join(f"{times[(name, a)]:.3f}" if (name, a) in times else "—" for a in apps) + " |")
PY
echo
cat "$report"
echo
echo "written: $report (logs and SARIF files beside it)"
