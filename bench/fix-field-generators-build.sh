#!/usr/bin/env bash
# Builds the field's async *generators* from a fetched checkout, for bench/fix-field-generators.sh: AsyncGenerator
# (github maca88/AsyncGenerator, MIT; NHibernate generates its async API with it) and CascadeAsyncifier (github
# Leoltron/CascadeAsyncifier, MIT). Their source is not in this repository: give each tool's git checkout (a clone, or
# the git directory the search tool's `fetch` leaves), the script clones it into OUT_DIR, checks out the pinned commit,
# applies the retargeting below and builds with `nice -n 10`. Every change is here and in BENCHMARKS.md; none touches
# what the tools do, only which framework and package versions they are built against.
#   AsyncGenerator 9e450a2 (0.23.0): built for net10.0 only (-p:*TargetFrameworks=net10.0: its net472 target wants
#     Microsoft.IO.Redist 6.1.3, not served here); Microsoft.Build 18.0.2 -> 18.9.6 (18.0.2 not served), so
#     Microsoft.Build.Framework 18.0.2 -> 18.9.6 and System.Text.Json 10.0.0 -> 10.0.8 (what Microsoft.Build 18.9.6
#     asks for; NU1605 otherwise); Microsoft.Build.Locator 1.10.12 -> 1.11.2 (not served) with
#     DisableMSBuildAssemblyCopyCheck=true (1.11's new MSBL001 check trips on the transitive Utilities.Core that the
#     project already excludes from its runtime assets); NU1603 not an error (System.* 10.0.0 not served, 10.0.x taken).
#   CascadeAsyncifier c4052d2: net6.0 -> net10.0 (the only runtime here); Microsoft.CodeAnalysis.*.Workspaces/MSBuild
#     4.1.0 -> 4.14.0 (4.1.0 not served; 4.14.0 is what AsyncGenerator uses, so both read the same C#) and
#     Microsoft.CodeAnalysis.Analyzers 3.3.3 -> 3.11.0 (what Roslyn 4.14 asks for); Microsoft.Build.Locator
#     1.4.1 -> 1.11.2 and Serilog.Sinks.Console 4.0.0 -> 4.0.1 (not served); NU1603 not an error;
#     DisableMSBuildAssemblyCopyCheck=true (MSBL001 on the Microsoft.Build 17.7.2 that Roslyn 4.14's MSBuild workspace
#     brings: that workspace loads projects in its out-of-process build host, not through this copy); its own
#     EnumerableExtensions.ToDictionary() over key-value pairs renamed, since .NET 8's Enumerable has the same method
#     (CS0121 at its one call, which then binds to .NET's: the same dictionary). The one source change.
# Usage: bench/fix-field-generators-build.sh OUT_DIR
#   AG_REPO=/path/to/AsyncGenerator.git  CA_REPO=/path/to/CascadeAsyncifier.git  (defaults: the fetch tool's mirrors)
# Prints the two tools' entry DLLs as shell assignments (AG_DLL=..., CA_DLL=...); exit 1 with the build log's path on failure.
set -euo pipefail
out="${1:?usage: $0 OUT_DIR}"
ag_repo="${AG_REPO:-/work/.mirror/maca88+AsyncGenerator/repo}"
ca_repo="${CA_REPO:-/work/.mirror/Leoltron+CascadeAsyncifier/repo}"
ag_commit=9e450a2c76dbe3a5173ba17da6e3fc30b6c14fb0
ca_commit=c4052d21a4a4241b6617c130d2c52a2f7cd3a209
mkdir -p "$out"
out="$(cd "$out" && pwd)"
ag_dll="$out/AsyncGenerator/Source/AsyncGenerator.Tool/bin/Release/net10.0/AsyncGenerator.Tool.dll"
ca_dll="$out/CascadeAsyncifier/CascadeAsyncifier/bin/Release/net10.0/CascadeAsyncifier.dll"
stamp="$out/built-by-$(sha256sum "$0" | cut -c1-12)"
if [ -f "$stamp" ] && [ -f "$ag_dll" ] && [ -f "$ca_dll" ]; then # built by this very script already
  echo "AG_DLL=$ag_dll"; echo "CA_DLL=$ca_dll"; exit 0
fi
# A stray Directory.Build.props or Directory.Packages.props above OUT_DIR (e.g. in /tmp) must not reach these builds.
for f in Directory.Build.props Directory.Build.targets; do echo '<Project />' > "$out/$f"; done
printf '<Project>\n  <PropertyGroup><ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally></PropertyGroup>\n</Project>\n' > "$out/Directory.Packages.props"

checkout() { # repo commit dir (a checkout already at that commit is kept as it is: its build stays incremental)
  [ -d "$3/.git" ] || git clone -q --no-checkout "$1" "$3"
  [ "$(git -C "$3" rev-parse -q --verify HEAD 2>/dev/null)" = "$2" ] && return 0
  git -C "$3" checkout -q -f "$2"
  git -C "$3" clean -q -fdx -e bin -e obj
}
replace() { # file from to: a change that must apply (or has been applied)
  grep -qF "$3" "$1" && return 0
  grep -qF "$2" "$1" || { echo "retargeting: '$2' not found in $1 (another commit?)" >&2; exit 1; }
  sed -i "s#$2#$3#" "$1"
}

ag="$out/AsyncGenerator"
checkout "$ag_repo" "$ag_commit" "$ag"
props="$ag/Source/Directory.Packages.props"
replace "$props" 'Include="Microsoft.Build" Version="18.0.2"' 'Include="Microsoft.Build" Version="18.9.6"'
replace "$props" 'Include="Microsoft.Build.Framework" Version="18.0.2"' 'Include="Microsoft.Build.Framework" Version="18.9.6"'
replace "$props" 'Include="System.Text.Json" Version="10.0.0"' 'Include="System.Text.Json" Version="10.0.8"'
replace "$props" 'Include="Microsoft.Build.Locator" Version="1.10.12"' 'Include="Microsoft.Build.Locator" Version="1.11.2"'
nice -n 10 dotnet build "$ag/Source/AsyncGenerator.Tool" -c Release -nologo -v q \
  -p:AppTargetFrameworks=net10.0 -p:LibTargetFrameworks=net10.0 -p:ToolTargetFrameworks=net10.0 \
  -p:WarningsNotAsErrors=NU1603 -p:DisableMSBuildAssemblyCopyCheck=true >"$out/asyncgenerator-build.log" 2>&1 \
  || { echo "AsyncGenerator does not build: $out/asyncgenerator-build.log" >&2; exit 1; }

ca="$out/CascadeAsyncifier"
checkout "$ca_repo" "$ca_commit" "$ca"
csproj="$ca/CascadeAsyncifier/CascadeAsyncifier.csproj"
replace "$csproj" '<TargetFramework>net6.0</TargetFramework>' '<TargetFramework>net10.0</TargetFramework>'
replace "$csproj" '"Microsoft.Build.Locator" Version="1.4.1"' '"Microsoft.Build.Locator" Version="1.11.2"'
replace "$csproj" '"Microsoft.CodeAnalysis.Analyzers" Version="3.3.3"' '"Microsoft.CodeAnalysis.Analyzers" Version="3.11.0"'
replace "$csproj" '"Microsoft.CodeAnalysis.CSharp.Workspaces" Version="4.1.0"' '"Microsoft.CodeAnalysis.CSharp.Workspaces" Version="4.14.0"'
replace "$csproj" '"Microsoft.CodeAnalysis.Workspaces.MSBuild" Version="4.1.0"' '"Microsoft.CodeAnalysis.Workspaces.MSBuild" Version="4.14.0"'
replace "$csproj" '"Serilog.Sinks.Console" Version="4.0.0"' '"Serilog.Sinks.Console" Version="4.0.1"'
replace "$ca/CascadeAsyncifier/Extensions/EnumerableExtensions.cs" 'Dictionary<TKey, TValue> ToDictionary<TKey, TValue>(' \
  'Dictionary<TKey, TValue> ToDictionaryOfPairs<TKey, TValue>('
nice -n 10 dotnet build "$ca/CascadeAsyncifier" -c Release -nologo -v q -p:WarningsNotAsErrors=NU1603 -p:DisableMSBuildAssemblyCopyCheck=true \
  >"$out/cascadeasyncifier-build.log" 2>&1 \
  || { echo "CascadeAsyncifier does not build: $out/cascadeasyncifier-build.log" >&2; exit 1; }

touch "$stamp"
echo "AG_DLL=$ag_dll"
echo "CA_DLL=$ca_dll"
