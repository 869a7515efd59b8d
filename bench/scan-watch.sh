#!/usr/bin/env bash
# scan --watch's figures (BENCHMARKS.md, "scan --watch"; issue 35's one changed file): bench/scan-watch.sh APP_FOLDER [EDITS]
# APP_FOLDER is scanned in place (give a copy: a comment line is appended to SOURCE once per edit). tplab scan --watch
# -o REPORT starts, and after its first report each edit appends a line to SOURCE and times the save until the report
# is rewritten (the report file's change, polled every 10 ms), EDITS times (default 5), 4 s apart; then the watch is
# stopped (SIGTERM) and its last report must equal a fresh --no-cache scan's, times apart. Prints each latency, the
# median, the watcher's CPU per edit (user + sys from /proc) and the load average.
# SOURCE: the file to edit, relative to APP_FOLDER (default: the first .cs file under a Controllers folder).
# TPLAB: the tplab command (default: dotnet src/Tplab.Cli/bin/Release/net10.0/tplab.dll; build it first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="$(cd "${1:?usage: bench/scan-watch.sh APP_FOLDER [EDITS]}" && pwd)"
edits="${2:-5}"
tplab="${TPLAB:-dotnet $root/src/Tplab.Cli/bin/Release/net10.0/tplab.dll}"
read -r -a tplab_cmd <<<"$tplab"
source_file="$app/${SOURCE:-$(cd "$app" && find . -path '*/Controllers/*.cs' -not -path '*/obj/*' -not -path '*/bin/*' | sort | head -n 1)}"
[ -f "$source_file" ] || { echo "bench: no source to edit ($source_file); give SOURCE" >&2; exit 2; }
work="$(mktemp -d /tmp/tplab-watch-XXXXXX)"
watcher=""
cleanup() { [ -n "$watcher" ] && kill -TERM "$watcher" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
echo "app $app, editing ${source_file#"$app"/}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"${tplab_cmd[@]}" scan "$app" --watch --allow-partial -o "$work/watch.json" 2>"$work/watch.err" &
watcher=$!
until grep -q "for changes (Ctrl+C stops)" "$work/watch.err"; do
  kill -0 "$watcher" 2>/dev/null || { cat "$work/watch.err" >&2; exit 1; }
  sleep 1
done
sleep 10
python3 - "$source_file" "$work/watch.json" "$edits" "$watcher" <<'PY'
import os, sys, time, statistics
source, report, edits, pid = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
tick = os.sysconf("SC_CLK_TCK")
def cpu():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick
latencies, cpus = [], []
for i in range(edits):
    before, used = os.stat(report).st_mtime_ns, cpu()
    start = time.monotonic()
    with open(source, "a") as f:
        f.write(f"// scan-watch bench edit {i}\n")
    while os.stat(report).st_mtime_ns == before:
        if time.monotonic() - start > 300:
            sys.exit("bench: no report 300 s after an edit")
        time.sleep(0.01)
    latencies.append(time.monotonic() - start)
    time.sleep(4)
    cpus.append(cpu() - used)
    print(f"edit {i + 1}: in the report after {latencies[-1]:.2f} s; the watcher's CPU until the next edit {cpus[-1]:.2f} s")
print(f"median: {statistics.median(latencies):.2f} s after the save (min {min(latencies):.2f}, max {max(latencies):.2f}); CPU per edit median {statistics.median(cpus):.2f} s (4 s of idle polling included)")
PY
grep "rescanned in" "$work/watch.err" | sed 's/^/  /'
kill -TERM "$watcher"; wait "$watcher" 2>/dev/null || true; watcher=""
"${tplab_cmd[@]}" scan "$app" --no-cache --allow-partial -o "$work/fresh.json" 2>/dev/null || true
if cmp -s <(grep -v 'Seconds"' "$work/watch.json") <(grep -v 'Seconds"' "$work/fresh.json"); then
  echo "the watch's last report is a fresh --no-cache scan's (times apart)"
else
  echo "DIFFERENT: the watch's last report is not a fresh scan's" >&2
  diff <(grep -v 'Seconds"' "$work/watch.json") <(grep -v 'Seconds"' "$work/fresh.json") | head -n 20 >&2
  exit 1
fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
