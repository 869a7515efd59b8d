#!/usr/bin/env bash
# The pull-request scan, as both CI recipes run it (github-workflow.yml, azure-pipelines.yml) and as anyone can run it
# locally: deploy/pr/scan-pr.sh BASE_REF [PATH]
#   BASE_REF  the pull request's base, fetched (origin/main); the findings kept are those whose chains pass through a
#             file changed since the merge base with it, uncommitted changes included (tplab scan --changed-since)
#   PATH      the solution, project or folder to scan (default: the current folder)
# Environment: TPLAB (the tplab command, default `tplab`, e.g. the dotnet tool installed from the package this repo
# builds), SARIF (the report, default tplab.sarif), BASELINE (accepted findings, default .tplab/baseline.json when it
# exists: written once with `tplab scan --write-baseline .tplab/baseline.json`), FAIL_ON (default error),
# TPLAB_SCAN_ARGS (more options, e.g. --allow-partial).
# Exit: tplab scan's code (docs/exit-codes.md): 0, 11 when a new finding at FAIL_ON or above passes through the change
# (baselined ones do not count), 12 when a project could not be read, 2 for a base ref that is missing or a shallow clone.
# The SARIF's paths are made relative to the repository's top (GitHub code scanning reads them so and does not
# support originalUriBaseIds), whatever folder the solution sits in.
set -euo pipefail
base="${1:?usage: deploy/pr/scan-pr.sh BASE_REF [PATH]}"
path="${2:-.}"
read -r -a tplab <<<"${TPLAB:-tplab}"
sarif="${SARIF:-tplab.sarif}"
baseline="${BASELINE:-.tplab/baseline.json}"
read -r -a extra <<<"${TPLAB_SCAN_ARGS:-}"

args=(scan "$path" --changed-since "$base" --format sarif -o "$sarif" --fail-on "${FAIL_ON:-error}")
[ -f "$baseline" ] && args+=(--baseline "$baseline")
set +e
"${tplab[@]}" "${args[@]}" "${extra[@]}"
code=$?
set -e
[ -f "$sarif" ] || exit "$code"

# Where the scanned root sits in the repository: the solution's or project's folder, or the folder given.
scanned="$path"
[ -f "$scanned" ] && scanned="$(dirname "$scanned")"
top="$(git -C "$scanned" rev-parse --show-toplevel)"
prefix="$(python3 -c 'import os,sys; r=os.path.relpath(os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])); print("" if r=="." else r.replace(os.sep,"/")+"/")' "$scanned" "$top")"
python3 - "$sarif" "$prefix" <<'PY'
import json, sys
path, prefix = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    log = json.load(f)
def walk(node):
    if isinstance(node, dict):
        if node.get("uriBaseId") == "%SRCROOT%" and isinstance(node.get("uri"), str):
            node["uri"] = prefix + node["uri"]
            del node["uriBaseId"]
        for value in node.values():
            walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)
walk(log)
for run in log.get("runs", []):
    run.pop("originalUriBaseIds", None)
tmp = path + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    json.dump(log, f, ensure_ascii=False, indent=2)
    f.write("\n")
import os
os.replace(tmp, path)
PY
exit "$code"
