#!/usr/bin/env bash
# tplab fix against the field's code fixes on the same findings (issue 27 §Goals): on a copy of each corpus app,
# Microsoft.VisualStudio.Threading.Analyzers' VSTHRD002 ("use await") and VSTHRD103 ("use the async sibling") code fixes
# applied through the Roslyn workspace API (bench/FieldFix: one diagnostic at a time, as a user clicking through the
# IDE's light bulb, until no fix changes anything), and `dotnet format analyzers` with the same ids (which applies only
# fixes that offer Fix All); Roslyn's own "Make method async" (Microsoft.CodeAnalysis.CSharp.Features 5.12.0, through
# bench/FieldFix --make-async: the user types each site's await by hand, then applies the fix to every CS4032/CS4033/
# CS4034 it raises); on another copy `tplab fix --apply`. Then each copy is built (the repository's settings:
# warnings as errors, .NET analyzers; the VSTHRD package left out of that build, since its own warnings are not the
# question) and scanned again by tplab. A blocking site counts as fixed when scan no longer reports a site of that
# call in that method (method names compared without an added Async suffix); a root path is a (site, entry point)
# pair as scan reports it. Usage: bench/fix-field.sh [APP_FOLDER...]   TPLAB=/path/to/tplab to pick the binary.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tplab="${TPLAB:-$here/tplab}"
vsthrd_version=18.12.1
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=("$here/tests/corpus/ShopApp" "$here/tests/corpus/ScanCases" "$here/tests/Tplab.OrdersService")
out="$(mktemp -d /tmp/tplab-fix-field.XXXXXX)"
dotnet build "$here/bench/FieldFix" -c Release -nologo -v q >"$out/fieldfix-build.log" 2>&1 || { echo "bench/FieldFix does not build: $out/fieldfix-build.log" >&2; exit 1; }
fieldfix="$here/bench/FieldFix/bin/Release/net10.0/FieldFix.dll"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); .NET SDK $(dotnet --version); Microsoft.VisualStudio.Threading.Analyzers $vsthrd_version"

# A scratch tree per tool: the repository's build settings, plus the analyzer package a user adds (off with -p:FieldAnalyzers=false).
scratch() {
  local dir="$1" app="$2"
  mkdir -p "$dir"
  cp "$here/global.json" "$dir/"
  cp "$here/Directory.Build.props" "$dir/Directory.Build.repo.props"
  cat > "$dir/Directory.Build.props" <<XML
<Project>
  <Import Project="Directory.Build.repo.props" />
  <ItemGroup Condition="'\$(FieldAnalyzers)' != 'false'">
    <PackageReference Include="Microsoft.VisualStudio.Threading.Analyzers" PrivateAssets="all" />
  </ItemGroup>
</Project>
XML
  sed "0,/<\/ItemGroup>/s#</ItemGroup>#  <PackageVersion Include=\"Microsoft.VisualStudio.Threading.Analyzers\" Version=\"$vsthrd_version\" />\n  </ItemGroup>#" \
    "$here/Directory.Packages.props" > "$dir/Directory.Packages.props"
  printf 'root = true\n\n[*.cs]\ndotnet_diagnostic.VSTHRD002.severity = warning\ndotnet_diagnostic.VSTHRD103.severity = warning\n' > "$dir/.editorconfig"
  cp -r "$app" "$dir/" && rm -rf "$dir/$(basename "$app")/bin" "$dir/$(basename "$app")/obj"
  dotnet restore "$dir/$(basename "$app")" -v q >/dev/null 2>&1 || true
}

echo
echo "| app | tool | sites fixed | root paths fixed | dotnet build after | root paths fixed with a compiling build | CPU s |"
echo "|---|---|---:|---:|---|---:|---:|"
for app in "${apps[@]}"; do
  name="$(basename "$app")"
  for tool in tplab vsthrd-workspace vsthrd-format roslyn-make-async; do
    dir="$out/$name/$tool"
    scratch "$dir" "$app"
    project="$dir/$name"
    "$tplab" scan "$project" --format json -o "$dir/before.json" 2>/dev/null || true
    case "$tool" in
      tplab) run=("$tplab" fix "$project" --from "$dir/before.json" --apply --format json -o "$dir/fix.json") ;;
      vsthrd-workspace) run=(dotnet "$fieldfix" "$(ls "$project"/*.csproj)" VSTHRD002 VSTHRD103) ;;
      vsthrd-format) run=(dotnet format analyzers "$(ls "$project"/*.csproj)" --diagnostics VSTHRD002 VSTHRD103 --severity warn -v n) ;;
      roslyn-make-async)
        python3 - "$dir/before.json" > "$dir/sites.tsv" <<'PY2'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["severity"] in ("error", "warning") and not f["baselined"]:
        site = f["chain"][-1]
        print(f"{site['file']}\t{site['line']}\t{site['column']}\t{f['blockingCall']}")
PY2
        run=(dotnet "$fieldfix" "$(ls "$project"/*.csproj)" --make-async "$dir/sites.tsv") ;;
    esac
    /usr/bin/time -f "%U %S" -o "$dir/time.txt" "${run[@]}" >"$dir/tool.log" 2>&1 || true
    if dotnet build "$project" -p:FieldAnalyzers=false -nologo -v q >"$dir/build.log" 2>&1; then build="compiles"; else build="**fails**"; fi
    "$tplab" scan "$project" --format json -o "$dir/after.json" 2>/dev/null || true
    python3 - "$dir" "$name" "$tool" "$build" <<'PY'
import json, re, sys
dir, name, tool, build = sys.argv[1:]
def key(f):
    method = re.sub(r"Async$", "", f["userFrame"])
    return (f["file"], f["blockingCall"], method)
before = json.load(open(f"{dir}/before.json"))["findings"]
after = {key(f) for f in json.load(open(f"{dir}/after.json"))["findings"]}
sites = [f for f in before if f["severity"] in ("error", "warning") and not f["baselined"]]
fixed = [f for f in sites if key(f) not in after]
pairs = sum(len(f["roots"]) for f in sites)
fixed_pairs = sum(len(f["roots"]) for f in fixed)
u, s = open(f"{dir}/time.txt").read().split()[-2:]
ok = fixed_pairs if build == "compiles" else 0
print(f"| {name} | {tool} | {len(fixed)}/{len(sites)} | {fixed_pairs}/{pairs} | {build} | {ok}/{pairs} | {float(u) + float(s):.1f} |")
PY
  done
done
echo
echo "Kept in $out (per app and tool: before.json, tool.log, build.log, after.json)"
