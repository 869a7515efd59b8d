#!/usr/bin/env bash
# VSTHRD002/VSTHRD103 (Microsoft.VisualStudio.Threading.Analyzers 18.12.1) on a large public app that cannot be built
# here (bench, not CI): the analyzers' DLLs run through Roslyn on the compilations MSBuildWorkspace loads
# (bench/FieldFix --list), the same compilations tplab scan reads. The app is copied and made to restore
# (bench/app-packages.py); test and benchmark projects are left out of the counts, as scan leaves them out. Prints the
# diagnostics per rule, then each row of the app's hand-found recall list (bench/judged/APP.md, "## Recall") with the
# rule that reports it (a diagnostic in the same file within 3 lines), and the recall.
# Usage: bench/peers-apps.sh APP_DIR SOLUTION JUDGED.md
# Example: bench/peers-apps.sh /work/apps/Kavita Kavita.sln bench/judged/kavita.md
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="${1:?usage: bench/peers-apps.sh APP_DIR SOLUTION JUDGED.md}"
solution="${2:?usage: bench/peers-apps.sh APP_DIR SOLUTION JUDGED.md}"
judged="${3:?usage: bench/peers-apps.sh APP_DIR SOLUTION JUDGED.md}"
analyzers="$HOME/.nuget/packages/microsoft.visualstudio.threading.analyzers/18.12.1/analyzers/cs"
[ -d "$app" ] || { echo "bench: no folder $app" >&2; exit 2; }
[ -f "$judged" ] || { echo "bench: no judged file $judged" >&2; exit 2; }
dotnet build "$root/bench/FieldFix" -c Release -v q -nologo >/dev/null
if [ ! -d "$analyzers" ]; then
  # Restored by bench/fix-field.sh's copies; a one-off restore of a throwaway project brings it otherwise.
  tmp="$(mktemp -d)"
  (cd "$tmp" && dotnet new classlib -o p >/dev/null && dotnet add p package Microsoft.VisualStudio.Threading.Analyzers -v 18.12.1 >/dev/null)
  rm -rf "$tmp"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$app" "$work/app"
python3 "$root/bench/app-packages.py" "$work/app" >"$work/packages.txt" 2>&1
dotnet restore "$work/app/$solution" >"$work/restore.log" 2>&1 || echo "bench: the restore failed in part (see the scan's own note); going on" >&2
/usr/bin/time -f "%e %U %S %M" -o "$work/time" dotnet "$root/bench/FieldFix/bin/Release/net10.0/FieldFix.dll" --list "$work/app/$solution" "$analyzers" VSTHRD002 VSTHRD103 \
  >"$work/diagnostics.tsv" 2>"$work/projects.txt"
commit=$(git -C "$app" rev-parse --short=8 HEAD 2>/dev/null || echo unknown)
echo "VSTHRD002/103 on $(basename "$app") at $commit ($(tail -n 1 "$work/packages.txt"))"
python3 - "$work/diagnostics.tsv" "$judged" "$work/time" <<'PY'
import re, sys
diags = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
app = [d for d in diags if not re.search(r"(^|/)[^/]*(Tests?|Benchmarks?)[^/]*/", d[1])]
wall, user, sys_, peak = open(sys.argv[3]).read().split()
print(f"\n{len(app)} diagnostics outside test and benchmark projects: " + ", ".join(f"{r} {sum(d[0] == r for d in app)}" for r in ("VSTHRD002", "VSTHRD103"))
      + f" ({len(diags) - len(app)} more in tests); {float(wall):.0f} s wall, {float(user) + float(sys_):.0f} s CPU, {int(peak) // 1024} MB peak")
text = open(sys.argv[2]).read()
recall = text[text.index("## Recall"):]
rows = []
# A table row per site ("| 3–6 | file:40, 98 |" is four), or (BTCPay's file) references "#2–#12, #14" to the precision table.
for n, f, lines in re.findall(r"^\| ([\d–-]+) \| `?([^|:`]+?):([\d, ]+)`? \|", recall, re.M):
    for i, l in enumerate(lines.replace(" ", "").split(",")):
        rows.append((n if i == 0 else f"{n}.{i}", f.strip().lstrip("…/"), int(l)))
if not rows:
    table = {n: (f.strip(), int(l)) for n, f, l in re.findall(r"^\| (\d+) \| [EW] \| ([^|]+?):(\d+) \|", text, re.M)}
    for a, b in re.findall(r"#(\d+)(?:–#(\d+))?", recall.split("must **not**")[0]):
        for n in range(int(a), int(b or a) + 1):
            if str(n) in table:
                rows.append((str(n), *table[str(n)]))
print("\n| # | site | VSTHRD |\n|---|---|---|")
found = 0
for n, f, l in rows:
    hit = [d[0] for d in app if d[1].endswith(f) and abs(int(d[2]) - l) <= 3]
    found += bool(hit)
    print(f"| {n} | {f}:{l} | {hit[0] if hit else 'missed'} |")
print(f"\nrecall on the hand-found list: {found}/{len(rows)}")
PY
