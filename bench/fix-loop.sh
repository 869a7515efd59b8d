#!/usr/bin/env bash
# The loop tplab fix closes, measured on a copy of an app (default: tests/Tplab.OrdersService):
#   scan → fix --plan (the proof plan for the findings fix can fix) → run before → fix --apply → dotnet build →
#   scan again → run after → compare.
# Prints each step's exit code and CPU time / peak RSS (GNU time); keeps everything in $OUT.
# The fix steps take --allow-partial, as README's one-line loop does: an app with a refused finding (FixProbes) goes on
# with what was fixed; each step's exit code is printed, and the last line says whether every step exited 0.
# Usage: bench/fix-loop.sh [APP_FOLDER] [OUT]   (an app folder holding one .csproj; copied, never changed in place)
#        TPLAB=/path/to/tplab picks the binary (default: ./tplab)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
app="${1:-$here/tests/Tplab.OrdersService}"
out="${2:-$(mktemp -d /tmp/tplab-fix-loop.XXXXXX)}"
tplab="${TPLAB:-$here/tplab}"   # TPLAB=/path/to/tplab: another build than ./tplab
mkdir -p "$out/app"
# The app and the build settings it takes from the repository (framework, warnings as errors), without build output.
cp "$here/Directory.Build.props" "$here/Directory.Packages.props" "$out/app/"
target="$out/app/$(basename "$app")"
cp -r "$app" "$target" && rm -rf "$target/bin" "$target/obj"
# A team's app is in git: fix --apply edits only files git knows and that are clean (docs/fix.md, "Where fix writes").
git -C "$out/app" init -q && git -C "$out/app" add -A && git -C "$out/app" -c user.name=bench -c user.email=bench@localhost commit -qm "the app before the fix"
failed=""
step() { local name="$1"; shift; echo "== $name: $*"; /usr/bin/time -f "   $name: exit %x, cpu %Us user %Ss sys, peak %M KB, wall %es" "$@" || failed="$failed $name"; }
step scan-before "$tplab" scan "$target" --format json -o "$out/scan-before.json"
step fix-plan "$tplab" fix "$target" --from "$out/scan-before.json" -o "$out/fix.patch" --plan "$out/proof.yaml" --allow-partial
step run-before "$tplab" run --plan "$out/proof.yaml" --results "$out/before"
step fix "$tplab" fix "$target" --from "$out/scan-before.json" --apply -o "$out/fix.json" --allow-partial
step build dotnet build "$target" -c Release -nologo -v q
step scan-after "$tplab" scan "$target" --format json -o "$out/scan-after.json"
step run-after "$tplab" run --plan "$out/proof.yaml" --results "$out/after"
step compare "$tplab" compare "$(ls -d "$out"/before/*/ | head -1)" "$(ls -d "$out"/after/*/ | head -1)"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
fix = json.load(open(f"{out}/fix.json"))
print("fix:", fix["summary"])
for f in fix["findings"]:
    print(f"  {f['status']:13} {f['id']} {f['check'] or '':8} {f['blockingCall']} in {f['userFrame']} ({f['file']}:{f['line']}) {f['reason'] or ''}")
print("findings before:", len(json.load(open(f"{out}/scan-before.json"))["findings"]),
      "after:", len(json.load(open(f"{out}/scan-after.json"))["findings"]))
PY
echo "steps that did not exit 0:${failed:- none} (the loop as README writes it, with &&, goes on only when none did)"
echo "kept in $out"
