#!/usr/bin/env bash
# Behaviour kept by each tool of the field run (bench/fix-field.sh), measured by the differential harness
# (tests/Tplab.Tests/Scan/Fix/Differential, bench/Tplab.Bench/Fix/FieldDifferentialBenchmark): the app as written
# against the copy a tool changed, both built in Release and started, every endpoint scan flags on the app as written
# called on both (success, aborted mid-way, the app's .http error and cancellation requests), 16 at once, answers and
# side effects compared. Only copies whose build compiles and where the tool changed at least one root path (the field
# table's last column above 0): the others have no behaviour to compare. Prints the Markdown table (with how many of the
# endpoints whose root paths the tool fixed a request called), then each difference and changed endpoint not called.
# Usage: bench/fix-field-differential.sh FIELD_OUT [APP/TOOL ...]   (FIELD_OUT: the folder fix-field.sh names last;
#        without APP/TOOL, every copy of it that qualifies)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
field="${1:?usage: $0 FIELD_OUT [APP/TOOL ...]}"; shift
picked=("$@")
if [ ${#picked[@]} -eq 0 ]; then
  mapfile -t picked < <(python3 - "$field" <<'PY'
import json, pathlib, re, sys
field = pathlib.Path(sys.argv[1])
def key(f):
    return (f["file"], f["blockingCall"], re.sub(r"Async$", "", f["userFrame"]))
for d in sorted(p.parent for p in field.glob("*/*/after.json")):
    build = (d / "build.log").read_text(errors="replace")
    if re.search(r": error [A-Z]+[0-9]+", build):
        continue
    before = json.load(open(d / "before.json"))["findings"]
    after = {key(f) for f in json.load(open(d / "after.json"))["findings"]}
    sites = [f for f in before if f["severity"] in ("error", "warning") and not f["baselined"]]
    if any(key(f) not in after for f in sites):
        print(f"{d.parent.name}/{d.name}")
PY
)
fi
copies=""
for pick in "${picked[@]}"; do
  app="${pick%%/*}"
  source="tests/corpus/$app"; [ -d "$source" ] || source="tests/$app"
  # The endpoints of the root paths the tool fixed (scan before and after, as fix-field.sh counts them), tab-separated.
  changed="$(python3 - "$field/$pick" <<'PY'
import json, re, sys
def key(f):
    return (f["file"], f["blockingCall"], re.sub(r"Async$", "", f["userFrame"]))
d = sys.argv[1]
after = {key(f) for f in json.load(open(f"{d}/after.json"))["findings"]}
before = json.load(open(f"{d}/before.json"))
entries = before["entryPoints"] # a finding's roots are indexes into them
roots = {entries[r]["key"] for f in before["findings"]
         if f["severity"] in ("error", "warning") and not f["baselined"] and key(f) not in after
         for r in f["roots"] if entries[r].get("endpoint")}
print("\t".join(sorted(roots)))
PY
)"
  copies="$copies;$pick|$(cd "$source" && pwd)|$field/$pick/$app|$changed"
done
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); copies: ${picked[*]}"
dotnet build bench/Tplab.Bench -c Release -v quiet -nologo | grep -E ' error |rror\(s\)' || true
report="$(mktemp)"
TPLAB_BENCH=1 TPLAB_FIELD_COPIES="${copies#;}" TPLAB_DIFFERENTIAL_REPORT="$report" dotnet test bench/Tplab.Bench -c Release --no-build \
  --filter "FullyQualifiedName~FieldDifferentialBenchmark" --logger "console;verbosity=quiet" >/dev/null 2>&1 || true
cat "$report"
