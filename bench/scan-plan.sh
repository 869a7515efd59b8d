#!/usr/bin/env bash
# From finding to proof, on the corpus apps: `tplab scan APP --plan` then `tplab run --plan` on the plan as written
# (dotnet run, a free port, 32 users for 10 s per flagged endpoint), and the count of findings confirmed, not seen under
# that load, not reached, not run; then, per state, which. The corpus apps keep no real data (ScanCases and ShopApp run
# without a database; their database endpoints answer 503 without one), so writes are switched on here (--plan-writes).
# Usage: bench/scan-plan.sh [APP...]   (default: tests/corpus/ScanCases tests/corpus/ShopApp; ~35 s per endpoint on 2 cores)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(tests/corpus/ScanCases tests/corpus/ShopApp)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for app in "${apps[@]}"; do
  name="$(basename "$app")"
  start=$SECONDS
  ./tplab scan "$app" --plan "$work/$name.yaml" --plan-writes -o "$work/$name.scan.txt" 2>"$work/$name.scan.err" || { cat "$work/$name.scan.err"; continue; }
  ./tplab run --plan "$work/$name.yaml" --results "$work/$name-results" >"$work/$name.run.txt" 2>&1 || true
  summary="$(ls -d "$work/$name-results"/*/summary.json | head -1)"
  python3 - "$summary" "$name" "$((SECONDS - start))" <<'PY'
import json, sys
summary, name, seconds = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
findings = [f for e in summary["experiments"] for f in e.get("findings", [])]
states = ["confirmed", "notSeen", "notReached", "notRun"]
count = {s: sum(1 for f in findings if f["state"] == s) for s in states}
scenarios = len(summary["scenarios"])
print(f"\n### {name}: {len(findings)} findings, {scenarios} scenarios, {seconds} s\n")
print("| state | findings | of them watched (no endpoint) |")
print("|---|---:|---:|")
for s in states:
    print(f"| {s} | {count[s]} | {sum(1 for f in findings if f['state'] == s and f['watched'])} |")
print()
for s in states:
    for f in findings:
        if f["state"] == s:
            print(f"- {s}: `{f['root']}` {f['blockingCall']} in {f['userMethod']} — {f['reason']}")
PY
done
