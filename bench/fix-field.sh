#!/usr/bin/env bash
# tplab fix against the field's code fixes on the same findings (issue 27 §Goals): on a copy of each corpus app,
# Microsoft.VisualStudio.Threading.Analyzers' VSTHRD002 ("use await") and VSTHRD103 ("use the async sibling") code fixes
# applied through the Roslyn workspace API (bench/FieldFix: one diagnostic at a time, as a user clicking through the
# IDE's light bulb, until no fix changes anything), and `dotnet format analyzers` with the same ids (which applies only
# fixes that offer Fix All); Roslyn's own "Make method async" (Microsoft.CodeAnalysis.CSharp.Features 5.12.0, through
# bench/FieldFix --make-async: the user types each site's await by hand, then applies the fix to every CS4032/CS4033/
# CS4034 it raises); on another copy `tplab fix --apply --force` (the scratch copies are in no git work tree, where
# --apply alone refuses to write). Then each copy is built (the repository's settings:
# warnings as errors, .NET analyzers; the VSTHRD package left out of that build, since its own warnings are not the
# question) and scanned again by tplab. A blocking site counts as fixed when scan no longer reports a site of that
# call in that method (method names compared without an added Async suffix); a root path is a (site, entry point)
# pair as scan reports it. Usage: bench/fix-field.sh [APP_FOLDER...]   TPLAB=/path/to/tplab to pick the binary.
# The field's async generators (issue 34 §5), on the same copies and the same count: AsyncGenerator (maca88, the
# dotnet tool NHibernate generates its async API with) and CascadeAsyncifier (Leoltron), built from a fetched checkout
# by bench/fix-field-generators-build.sh (GENERATORS=DIR: where to build them; without it they are left out of the run).
# AsyncGenerator is configured as a team converting its request paths would (bench/fix-field-asyncgenerator.yml: every
# method with a call that has an async counterpart converted, and every caller up to the entry points, tokens passed
# where a counterpart takes one); `asyncgenerator-adapted` runs it on a copy made readable to it (namespaces as blocks,
# the files declaring a record left out, an AsyncLock type added: bench/fix-field-blockscope.py, -asynclock.cs).
# CascadeAsyncifier takes no configuration (it converts every such method and its callers).
# TOOLS="tplab asyncgenerator" to run some of the tools only; AG_DLL=/CA_DLL= to use generators built already.
# Behaviour kept by each copy that compiles and changed a root path: bench/fix-field-differential.sh on the folder this prints last.
# CPU s and wall s are the tool's own run (not the copies, scans and builds around it). TOOL_TIMEOUT=SECONDS stops a
# tool that runs longer (its process group, TERM then KILL 30 s later); its row then says "stopped after N s".
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tplab="${TPLAB:-$here/tplab}"
vsthrd_version=18.12.1
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=("$here/tests/corpus/ShopApp" "$here/tests/corpus/ScanCases" "$here/tests/Tplab.OrdersService")
out="$(mktemp -d /tmp/tplab-fix-field.XXXXXX)"
tools=(${TOOLS:-tplab vsthrd-workspace vsthrd-format roslyn-make-async ${GENERATORS:+asyncgenerator asyncgenerator-adapted cascadeasyncifier}})
if [[ " ${tools[*]} " == *" vsthrd-workspace "* || " ${tools[*]} " == *" roslyn-make-async "* ]]; then
  dotnet build "$here/bench/FieldFix" -c Release -nologo -v q >"$out/fieldfix-build.log" 2>&1 || { echo "bench/FieldFix does not build: $out/fieldfix-build.log" >&2; exit 1; }
fi
fieldfix="$here/bench/FieldFix/bin/Release/net10.0/FieldFix.dll"
if [[ " ${tools[*]} " == *" asyncgenerator"* || " ${tools[*]} " == *" cascadeasyncifier "* ]] && [ -z "${AG_DLL:-}${CA_DLL:-}" ]; then
  builds="$("$here/bench/fix-field-generators-build.sh" "${GENERATORS:?GENERATORS=DIR: where to build the generators}")" || exit 1
  eval "$builds"
fi
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
echo "| app | tool | sites fixed | root paths fixed | dotnet build after | root paths fixed with a compiling build | CPU s | wall s |"
echo "|---|---|---:|---:|---|---:|---:|---:|"
for app in "${apps[@]}"; do
  name="$(basename "$app")"
  for tool in "${tools[@]}"; do
    dir="$out/$name/$tool"
    scratch "$dir" "$app"
    project="$dir/$name"
    "$tplab" scan "$project" --format json -o "$dir/before.json" 2>/dev/null || true
    case "$tool" in
      tplab) run=("$tplab" fix "$project" --from "$dir/before.json" --apply --force --format json -o "$dir/fix.json") ;;
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
      asyncgenerator*) # reads AsyncGenerator.yml from the working directory; the project path is relative to it
        sed "s#PROJECT#$name/$(basename "$project"/*.csproj)#" "$here/bench/fix-field-asyncgenerator.yml" > "$dir/AsyncGenerator.yml"
        if [ "$tool" = asyncgenerator-adapted ]; then
          # The copy made readable to it (0.23.0 stops on a file-scoped namespace, a record, a lock without asyncLock):
          # namespaces as blocks, the files that declare a record left out (ignoreDocuments), NHibernate's AsyncLock added.
          python3 "$here/bench/fix-field-blockscope.py" "$project"
          mkdir -p "$project/FieldBench" && cp "$here/bench/fix-field-asynclock.cs" "$project/FieldBench/AsyncLock.cs"
          python3 - "$dir/AsyncGenerator.yml" "$project" <<'PY3'
import pathlib, re, sys
config, project = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
records = sorted(str(p.relative_to(project)) for p in project.rglob("*.cs")
                 if not {"bin", "obj"} & set(p.parts) and re.search(r"\brecord (struct |class )?[A-Z]", p.read_text(encoding="utf-8")))
text = config.read_text(encoding="utf-8")
text = text.replace("  analyzation:\n", "  analyzation:\n" + ("    ignoreDocuments:\n" + "".join(f"    - filePathEndsWith: {r}\n" for r in records) if records else ""), 1)
text = text.replace("  transformation:\n", "  transformation:\n    asyncLock:\n      type: FieldBench.AsyncLock\n      methodName: LockAsync\n", 1)
config.write_text(text, encoding="utf-8")
PY3
        fi
        run=(env -C "$dir" dotnet "$AG_DLL") ;;
      cascadeasyncifier) # opens a .sln only: one beside the project, holding it; run in the copy's folder, where it
        # writes its log (DATE_field.sln.log in the working directory: the caller's checkout otherwise)
        dotnet new sln -n field -o "$dir" --format sln >/dev/null && dotnet sln "$dir/field.sln" add "$project"/*.csproj >/dev/null
        run=(env -C "$dir" dotnet "$CA_DLL" --solution-path "$dir/field.sln") ;;
    esac
    [ -z "${TOOL_TIMEOUT:-}" ] || run=(timeout -k 30 "$TOOL_TIMEOUT" "${run[@]}")
    /usr/bin/time -f "%U %S %e" -o "$dir/time.txt" "${run[@]}" >"$dir/tool.log" 2>&1 || true
    grep -q "status 124$" "$dir/time.txt" && build="stopped after ${TOOL_TIMEOUT} s, " || build=""
    if dotnet build "$project" -p:FieldAnalyzers=false -nologo -v q >"$dir/build.log" 2>&1; then build="${build}compiles"; else build="${build}**fails**"; fi
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
u, s, wall = open(f"{dir}/time.txt").read().split()[-3:]
ok = fixed_pairs if build.endswith("compiles") else 0
print(f"| {name} | {tool} | {len(fixed)}/{len(sites)} | {fixed_pairs}/{pairs} | {build} | {ok}/{pairs} | {float(u) + float(s):.1f} | {float(wall):.1f} |")
PY
  done
done
echo
echo "Kept in $out (per app and tool: before.json, tool.log, build.log, after.json)"
