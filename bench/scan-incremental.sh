#!/usr/bin/env bash
# The incremental scan's figures (BENCHMARKS.md, "Incremental scan") and the pull-request recipe run locally (issue 35
# §5, §6): bench/scan-incremental.sh [APP_FOLDER...] (default: tests/corpus/ShopApp and tests/scan-fixtures/Shop).
# Each app is copied into a throwaway git repository (with this repository's build props where it has none), then
# timed (wall seconds / CPU seconds, user + sys with children; the load average before and after each app is printed):
#   full       tplab scan --no-cache                     (MSBuild loads, everything analysed)
#   cold       tplab scan (the default cache, none yet: a full scan that writes obj/tplab-scan/scan-cache.json)
#   unchanged  tplab scan again                          (the cache reused: no MSBuild)
#   one-file   a line appended to one source, scan       (no MSBuild: the projects rebuilt from the cache, all analysed;
#                                                         its report must equal a fresh full scan's of the same tree)
#   pr         another line appended, deploy/pr/scan-pr.sh HEAD (--changed-since on a one-file change, SARIF; the
#                                                         cache of the tree before it: rebuilt without MSBuild again)
#   pr-cold    the same after rm -rf obj/tplab-scan       (what a CI job without a cache pays)
# and the recipe's SARIF is checked: repository-relative URIs, no originalUriBaseIds, a partialFingerprint per result.
# NO_FULL=1 leaves out the --no-cache full scans (the cold scan is one too): the full column, the one-file check against a
# full scan, and pr-cold.
# SOURCE: the file to change, relative to the throwaway repository (app/...; default: the first non-test .cs file).
# TPLAB: the tplab command (default: dotnet src/Tplab.Cli/bin/Release/net10.0/tplab.dll; build it first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tplab="${TPLAB:-dotnet $root/src/Tplab.Cli/bin/Release/net10.0/tplab.dll}"
read -r -a tplab_cmd <<<"$tplab"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=("$root/tests/corpus/ShopApp" "$root/tests/scan-fixtures/Shop")
work="$(mktemp -d /tmp/tplab-incremental-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# Each figure is WALL/CPU seconds: the wall clock, and the CPU (user + sys) of the command and its children (MSBuild's
# build host, git), which on a machine shared with other work is the figure to compare.
seconds() {
  /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null 2>>"$work/log" || true
  python3 -c "import sys; w, u, s = map(float, open(sys.argv[1]).read().split()[-3:]); print(f'{w:.2f}/{u + s:.2f}')" "$work/time"
}

printf '%-10s %14s %14s %12s %12s %12s %14s  %s\n' app full cold unchanged one-file pr pr-cold "pr findings"
for app in "${apps[@]}"; do
  name="$(basename "$app")"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  repo="$work/$name"
  mkdir -p "$repo"
  cp -r "$app" "$repo/app"
  find "$repo/app" -type d \( -name obj -o -name bin \) -prune -exec rm -rf {} +
  # An app of this repository takes the build settings MSBuild finds above it (the nearest Directory.Build.props and
  # Directory.Packages.props: the scan fixtures' own stop this repository's central versions; a corpus app gets the
  # root's) and the root's global.json; an app from elsewhere has its own.
  case "$(cd "$app" && pwd)" in "$root"/tests/*)
    for props in Directory.Build.props Directory.Packages.props; do
      [ -f "$repo/app/$props" ] && continue
      up="$(cd "$app/.." && pwd)"
      while [ ! -f "$up/$props" ] && [ "$up" != "$root" ]; do up="$(dirname "$up")"; done
      [ -f "$up/$props" ] && cp "$up/$props" "$repo/"
    done
    cp "$root/global.json" "$repo/" ;;
  esac
  printf 'bin/\nobj/\n*.sarif\n' >"$repo/.gitignore"
  git -C "$repo" init -q && git -C "$repo" add -A && git -C "$repo" -c user.email=b@example.com -c user.name=bench commit -qm base
  target="$repo/app"
  # Restore once, outside the figures (a scan restores what has none, once).
  "${tplab_cmd[@]}" scan "$target" --no-cache -o "$work/restore.json" >/dev/null 2>&1 || true
  full=-; [ -n "${NO_FULL:-}" ] || full=$(seconds "${tplab_cmd[@]}" scan "$target" --no-cache -o "$work/full.json")
  rm -rf "$(find "$repo" -type d -path '*/obj/tplab-scan' -print -quit)"
  cold=$(seconds "${tplab_cmd[@]}" scan "$target" -o "$work/cold.json")
  unchanged=$(seconds "${tplab_cmd[@]}" scan "$target" -o "$work/unchanged.json")
  grep -v 'Seconds"' "$work/cold.json" >"$work/a"; grep -v 'Seconds"' "$work/unchanged.json" >"$work/b"
  cmp -s "$work/a" "$work/b" || { echo "scan-incremental: $name: the reused report differs from the full scan's" >&2; exit 1; }
  source="${SOURCE:-}"; [ -n "$source" ] || source="$(cd "$repo" && git ls-files '*.cs' | grep -v -i test | sort | head -n 1)"
  echo "// changed by bench/scan-incremental.sh" >>"$repo/$source"
  : >"$work/log"
  one=$(seconds "${tplab_cmd[@]}" scan "$target" -o "$work/one.json")
  grep -q "rebuilt from the cache without MSBuild" "$work/log" || echo "scan-incremental: $name: the one-file scan was not rebuilt from the cache: $(tail -n 3 "$work/log")" >&2
  if [ -z "${NO_FULL:-}" ]; then
    "${tplab_cmd[@]}" scan "$target" --no-cache -o "$work/one-full.json" >/dev/null 2>&1 || true
    grep -v 'Seconds"' "$work/one.json" >"$work/a"; grep -v 'Seconds"' "$work/one-full.json" >"$work/b"
    cmp -s "$work/a" "$work/b" || { echo "scan-incremental: $name: the one-file report differs from a full scan's" >&2; exit 1; }
  fi
  echo "// changed again by bench/scan-incremental.sh" >>"$repo/$source"
  : >"$work/log"
  pr=$( cd "$repo" && TPLAB="$tplab" SARIF="$work/pr.sarif" seconds "$root/deploy/pr/scan-pr.sh" HEAD app)
  grep -q "rebuilt from the cache without MSBuild" "$work/log" || echo "scan-incremental: $name: the pr scan was not rebuilt from the cache: $(tail -n 3 "$work/log")" >&2
  prcold=-
  [ -n "${NO_FULL:-}" ] || { rm -rf "$(find "$repo" -type d -path '*/obj/tplab-scan' -print -quit)"; prcold=$( cd "$repo" && TPLAB="$tplab" SARIF="$work/pr-cold.sarif" seconds "$root/deploy/pr/scan-pr.sh" HEAD app); }
  kept=$(python3 - "$work/pr.sarif" "$repo" <<'PY'
import json, os, sys
log = json.load(open(sys.argv[1], encoding="utf-8"))
run = log["runs"][0]
assert "originalUriBaseIds" not in run, "originalUriBaseIds left in"
for r in run["results"]:
    assert r.get("partialFingerprints"), "a result without partialFingerprints"
    uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert not uri.startswith("/") and os.path.exists(os.path.join(sys.argv[2], uri)), f"not a repository-relative path: {uri}"
print(len(run["results"]))
PY
)
  printf '%-10s %14s %14s %12s %12s %12s %14s  %s of %s (changed: %s; load %s, then %s)\n' "$name" "$full" "$cold" "$unchanged" "$one" "$pr" "$prcold" "$kept" \
    "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$work/one.json")" "$source" "$load" "$(cut -d' ' -f1 /proc/loadavg)"
done
