#!/usr/bin/env bash
# tplab fix on copies of the corpus apps (and any app folder given): fix --apply, then dotnet build (analyzers and
# warnings as errors, the repository's settings), then scan again; prints per app fixed / partly / refused, the build's
# result, the fixed findings scan still reports (should be 0) and fix's CPU time and peak RSS (GNU time).
# A root path is a (site, entry point) pair as scan reports it (each finding's roots in fix.json), fixed when its site
# was; an entry point counts as fixed when every selected site it reaches was fixed. The last line sums the root paths.
# Usage: bench/fix-corpus.sh [APP_FOLDER...]   (default: tests/corpus/ShopApp tests/corpus/ScanCases tests/Tplab.OrdersService)
#        TPLAB=/path/to/tplab bench/fix-corpus.sh   (a tplab other than ./tplab, e.g. one published before editing the source)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tplab="${TPLAB:-$here/tplab}"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=("$here/tests/corpus/ShopApp" "$here/tests/corpus/ScanCases" "$here/tests/Tplab.OrdersService")
out="$(mktemp -d /tmp/tplab-fix-corpus.XXXXXX)"
echo "| app | findings (sites) | fixed | partly fixed | refused | root paths fixed | entry points with every site fixed | dotnet build after | fixed still reported by scan | fix CPU s | fix peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
for app in "${apps[@]}"; do
  name="$(basename "$app")"
  work="$out/$name"
  mkdir -p "$work"
  cp "$here/Directory.Build.props" "$here/Directory.Packages.props" "$work/"
  cp -r "$app" "$work/$name" && rm -rf "$work/$name/bin" "$work/$name/obj"
  # In git, as a team's app is: fix --apply edits only files git knows and that are clean.
  git -C "$work" init -q && git -C "$work" add -A && git -C "$work" -c user.name=bench -c user.email=bench@localhost commit -qm before
  /usr/bin/time -f "%U %S %M" -o "$work/time.txt" "$tplab" fix "$work/$name" --apply --format json -o "$work/fix.json" 2>"$work/fix.err" || true
  if dotnet build "$work/$name" -nologo -v q >"$work/build.log" 2>&1; then build="compiles"; else build="**fails**"; fi
  "$tplab" scan "$work/$name" --format json -o "$work/after.json" 2>/dev/null || true
  python3 - "$work" "$name" "$build" <<'PY'
import hashlib, json, sys
from collections import defaultdict
work, name, build = sys.argv[1:]
fix = json.load(open(f"{work}/fix.json"))
after = json.load(open(f"{work}/after.json"))
sites = defaultdict(set)
for f in after["findings"]:
    h = f["chain"][-1]
    sites[(f["userFrame"], f["blockingCall"])].add((h["line"], h["column"]))
ids = {f.get("id") for f in after["findings"] if f.get("id")}
for (m, c), s in sites.items():
    for i, _ in enumerate(sorted(s)):
        ids.add("tp-" + hashlib.sha256(f"{m}\n{c}\n{i}".encode()).hexdigest()[:10])
fixed = [f["id"] for f in fix["findings"] if f["status"] == "fixed"]
left = [i for i in fixed if i in ids]
u, s_, m = open(f"{work}/time.txt").read().split()[-3:]
su = fix["summary"]
roots = defaultdict(list)
for f in fix["findings"]:
    for r in f["roots"]:
        roots[r].append(f["status"])
fixed_roots = sum(all(s == "fixed" for s in v) for v in roots.values())
pairs = sum(len(f["roots"]) for f in fix["findings"])
fixed_pairs = sum(len(f["roots"]) for f in fix["findings"] if f["status"] == "fixed")
with open(f"{work}/pairs.txt", "w") as out:
    out.write(f"{fixed_pairs} {pairs} {'1' if build == 'compiles' else '0'}\n")
named = sum(1 for f in fix["findings"] if f["status"] != "fixed" and f.get("check"))
print(f"| {name} | {len(fix['findings'])} | {su['fixed']} | {su['partlyFixed']} | {su['refused']} ({named} with an id) | {fixed_pairs}/{pairs} | {fixed_roots}/{len(roots)} | {build} | {len(left)} | {float(u) + float(s_):.1f} | {int(m) // 1024} |")
with open(f"{work}/refused.txt", "w") as out:
    for f in fix["findings"]:
        if f["status"] != "fixed":
            out.write(f"{name}\t{f['status']}\t{f.get('check') or 'NO ID'}\t{f['file']}:{f['line']}\t{f['blockingCall']}\t{f['reason']}\n")
PY
done
cat "$out"/*/pairs.txt | awk '{ f += $1; t += $2; if ($3 == 0) broken++ } END { if (t > 0) printf "\nroot paths fixed, all apps: %d/%d = %.1f%% (goal: 90%%); broken builds: %d\n", f, t, 100 * f / t, broken }'
echo
echo "Refusals and what is left, per app: $out/*/fix.json; one line each:"
cat "$out"/*/refused.txt
