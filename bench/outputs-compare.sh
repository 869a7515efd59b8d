#!/usr/bin/env bash
# Behaviour unchanged across a refactoring: runs the same replayable commands on two builds of tplab (BASE, a commit,
# and the work tree) and compares what they write, parsed (JSON by value, text by line), not as bytes.
# Usage: bench/outputs-compare.sh [BASE]   (default: 236e333, main before the structure step of issue 29)
# Prints one line per output: "same", or "differs" with the first differences; exit 0 always (it reports, it
# does not judge: some differences are the defects an issue names). Not in CI: it builds BASE (a few minutes).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${1:-236e333}"
work="$(mktemp -d -t tplab-outputs-XXXXXX)"
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

echo "outputs-compare: building $base and the work tree" >&2
git -C "$root" worktree add --detach "$work/base" "$base" >/dev/null 2>&1
dotnet build "$work/base/src/Tplab.Cli" -c Release -o "$work/base-bin" -v quiet -nologo >/dev/null
dotnet build "$root/src/Tplab.Cli" -c Release -o "$work/new-bin" -v quiet -nologo >/dev/null

fixtures="$root/tests/Tplab.Tests/Fixtures/v1"
# name | arguments (paths from the work tree, so both builds read the same input)
cases=(
  "compare-json|compare $fixtures/results-repeat $fixtures/results-single --format json"
  "compare-text|compare $fixtures/results-repeat $fixtures/results-single --format text"
  "compare-html|compare $fixtures/results-repeat $fixtures/results-single --format html"
  "watch-jsonl|watch --from $fixtures/watch.jsonl --format jsonl"
  "watch-csv|watch --from $fixtures/watch.jsonl --format csv"
  "watch-html|watch --from $fixtures/watch.jsonl --format html"
  "timeline-jsonl|watch --from $fixtures/results-single/ab-100/sleep.timeline.jsonl --format jsonl"
  "scan-json|scan $root/tests/scan-fixtures/Shop --format json"
  "scan-text|scan $root/tests/scan-fixtures/Shop --format text"
)
for c in "${cases[@]}"; do
  name="${c%%|*}"; args="${c#*|}"
  # ONLY=regex runs only the matching cases
  [[ -z "${ONLY:-}" || "$name" =~ ${ONLY} ]] || continue
  for side in base new; do
    # shellcheck disable=SC2086
    (cd "$work" && dotnet "$work/$side-bin/tplab.dll" $args >"$work/$name.$side" 2>"$work/$name.$side.err"; echo $? >"$work/$name.$side.rc") || true
  done
  python3 - "$name" "$work/$name.base" "$work/$name.new" "$work/$name.base.rc" "$work/$name.new.rc" <<'EOF'
import json, re, sys
name, a, b, ra, rb = sys.argv[1:]
ca, cb = open(ra).read().strip(), open(rb).read().strip()
ta, tb = open(a, encoding="utf-8").read(), open(b, encoding="utf-8").read()

def parse(text):
    # A JSON document, or JSON lines, or text lines; an HTML page's embedded data (tplab-data) is compared as JSON.
    m = re.search(r'<script id="tplab-data" type="application/json">(.*?)</script>', text, re.S)
    if m:
        return ("html", {"data": json.loads(m.group(1)), "page": (text[:m.start()] + text[m.end():]).splitlines()})
    try:
        return ("json", json.loads(text))
    except ValueError:
        pass
    try:
        return ("jsonl", [json.loads(l) for l in text.splitlines() if l.strip()])
    except ValueError:
        return ("text", text.splitlines())

def diffs(x, y, path="$"):
    if type(x) is not type(y) and not (isinstance(x, (int, float)) and isinstance(y, (int, float))):
        yield f"{path}: {json.dumps(x)[:80]} -> {json.dumps(y)[:80]}"
    elif isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x: yield f"{path}.{k}: only in new"
            elif k not in y: yield f"{path}.{k}: only in base"
            else: yield from diffs(x[k], y[k], f"{path}.{k}")
    elif isinstance(x, list):
        if len(x) != len(y): yield f"{path}: {len(x)} items -> {len(y)}"
        for i, (p, q) in enumerate(zip(x, y)): yield from diffs(p, q, f"{path}[{i}]")
    elif x != y:
        yield f"{path}: {json.dumps(x)[:80]} -> {json.dumps(y)[:80]}"

ka, pa = parse(ta); kb, pb = parse(tb)
found = [] if ca == cb else [f"exit {ca} -> {cb}"]
if ka != kb:
    found.append(f"kind {ka} -> {kb}")
else:
    found += list(diffs(pa, pb))
print(f"{name}: " + ("same" if not found else f"differs ({len(found)}): " + "; ".join(found[:6])))
EOF
done
