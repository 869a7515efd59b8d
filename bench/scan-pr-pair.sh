#!/usr/bin/env bash
# `tplab scan --changed-since HEAD` on a one-file change, two builds of tplab side by side (BENCHMARKS.md, "Incremental
# scan and pull requests"): bench/scan-pr-pair.sh OLD NEW APP_FOLDER TARGET SOURCE [PAIRS] [end|start]
#   OLD, NEW    two tplab commands (e.g. "dotnet /tmp/before/tplab.dll" and "dotnet .build/app/tplab.dll"; ./tplab publishes one)
#   APP_FOLDER  the app (copied twice under /tmp, each copy a git repository with its own cache)
#   TARGET      what to scan, relative to the app (SimplCommerce.sln)
#   SOURCE      the file to change, relative to the app: a line `// tplab-bench` appended and removed in turn, or with
#               `start` inserted as its first line (every declaration in the file moves, as an edit near its top moves them)
# Each copy is scanned once by its build (the cache of the unchanged tree), then the two alternate, PAIRS times (default
# 6), each run after toggling the line in its own copy: wall and CPU seconds per run, and the load average.
set -euo pipefail
old="$1"; new="$2"; app="$3"; target="$4"; source="$5"; pairs="${6:-6}"; where="${7:-end}"
[ "$where" = end ] || [ "$where" = start ] || { echo "bench: the 7th argument is end or start, not $where" >&2; exit 2; }
work="$(mktemp -d /tmp/tplab-pr-pair-XXXXXX)"
trap 'rm -rf "$work"' EXIT
read -r -a old_cmd <<<"$old"
read -r -a new_cmd <<<"$new"
for side in old new; do
  cp -r "$app" "$work/$side"
  rm -rf "$work/$side/obj/tplab-scan"
  (cd "$work/$side" && git init -q && git add -A && git -c user.email=b@example.com -c user.name=bench commit -q --allow-empty -m base)
done
(cd "$work/old" && "${old_cmd[@]}" scan "$target" --allow-partial >/dev/null 2>&1 || true)
(cd "$work/new" && "${new_cmd[@]}" scan "$target" --allow-partial >/dev/null 2>&1 || true)
toggle() {
  local file="$1/$source"
  if [ "$where" = start ]; then
    if head -n 1 "$file" | grep -q '^// tplab-bench$'; then sed -i '1 d' "$file"; else sed -i '1 i // tplab-bench' "$file"; fi
  elif tail -n 1 "$file" | grep -q '^// tplab-bench$'; then sed -i '$ d' "$file"; else echo '// tplab-bench' >>"$file"; fi
}
run() {
  local side="$1"; shift
  toggle "$work/$side"
  (cd "$work/$side" && /usr/bin/time -f "$side %e s wall %U+%S s CPU" -o "$work/time" "$@" scan "$target" --allow-partial --changed-since HEAD >/dev/null 2>&1 || true)
  echo "$(cat "$work/time") (load $(cut -d' ' -f1 /proc/loadavg))"
}
for _ in $(seq 1 "$pairs"); do
  run old "${old_cmd[@]}"
  run new "${new_cmd[@]}"
done
