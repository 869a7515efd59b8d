#!/usr/bin/env bash
# Benchmarks tplab load against its peers in ONE run against ONE target (tplab serve --no-db, GET /):
#   a. throughput, generator and target sharing both cores: closed loop, 50 connections, SECS seconds each
#   b. pinned (taskset): every target thread on core 1, the generator on core 0: requests per CPU-second of the
#      generator (user + sys of its process, from /usr/bin/time), the figure pinned throughput alone cannot give
#   a and b run ROUNDS rounds, every tool once per round in turn, and print medians: one run of one tool moves by
#   up to 8% on this shared machine, so a ratio is the median of the rounds' ratios (each round's tools ran minutes
#   apart at most), with their range beside it
#   c. open-loop accuracy at 1,000, 5,000 and 20,000/s (and 20,000/s after --warmup 1s): achieved / target rate,
#      send lag p50/p99, late sends
#   d. memory of a long open-loop run at 5,000/s, histograms only vs streaming per-request CSV (RSS every 5 s)
# Usage: bench/load.sh [SECS] [MEM_SECS] [ROUNDS]   (defaults 10, 60 and 3). Prints Markdown for BENCHMARKS.md.
# Environment (all optional):
#   BASELINE=REV     also builds git revision REV (a branch, tag or commit) the way ./tplab does, and measures it as
#                    tool "tplab-base" in the same rounds against the same target: a change's cost is then a ratio
#                    measured minutes apart, not two runs of a shared machine an hour apart
#   TOOLS="a b ..."  the tools of a and b (default: tplab tplab-httpclient wrk hey ab; tplab is always measured)
#   SECTIONS=abcd    which sections to run
# Rounds alternate the order of the tools (even rounds run them backwards), so no tool always runs first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs="${1:-10}"
mem_secs="${2:-60}"
rounds="${3:-3}"
[[ "$rounds" =~ ^[1-9][0-9]?$ ]] || { echo "bench: ROUNDS must be a whole number from 1 to 99, got '$rounds'" >&2; exit 2; }
scripts/install-deps.sh bench
# The build users run: ./tplab publishes it (ReadyToRun) into .build/app. The dll is run directly so that b's CPU
# time is the generator's alone, not also the launcher's check for changed sources.
"$root/tplab" --version >/dev/null
tplab=(dotnet "$root/.build/app/tplab.dll")
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
  wait 2>/dev/null
  [ -d "$work/base" ] && git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
sections="${SECTIONS:-abcd}"
read -r -a tools <<<"${TOOLS:-tplab tplab-httpclient wrk hey ab}"
[[ " ${tools[*]} " == *" tplab "* ]] || tools=(tplab "${tools[@]}")
if [ -n "${BASELINE:-}" ]; then
  # The baseline's own checkout and build (./tplab publishes it ReadyToRun into its .build/app), removed at exit.
  git -C "$root" worktree add --detach "$work/base" "$BASELINE" >/dev/null 2>&1 \
    || { echo "bench: BASELINE '$BASELINE' is not a revision of this repository" >&2; exit 2; }
  "$work/base/tplab" --version >/dev/null
  tplab_base=(dotnet "$work/base/.build/app/tplab.dll")
  tools+=(tplab-base)
fi

"${tplab[@]}" serve --port 0 --no-db >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.2; done
base="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.out" | head -1)"
target_pid="$(grep -o 'target pid [0-9]*' "$work/serve.out" | awk '{print $3}')"
[ -n "$base" ] && [ -n "$target_pid" ] || { echo "bench: the target did not start" >&2; cat "$work/serve.err" >&2; exit 3; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, d))" "$@"; }

# Warm the target (JIT, connections) so the first tool measured is not penalised.
wrk -t2 -c50 -d3s "$base" >/dev/null

# Each tool: runs under the command prefix in $gen (empty, or /usr/bin/time + taskset for b), then prints the number
# of requests it completed. The count is read after the tool exits, so b's CPU time is the generator's alone, not the
# parsing of its report.
run_tool() {
  local tool="$1" t="$2"
  case "$tool" in
    tplab) "${gen[@]}" "${tplab[@]}" load "$base" -c 50 --duration "${t}s" --quiet --format json --output "$work/t.json" >/dev/null; json "$work/t.json" "requests" ;;
    tplab-base) "${gen[@]}" "${tplab_base[@]}" load "$base" -c 50 --duration "${t}s" --quiet --format json --output "$work/t.json" >/dev/null; json "$work/t.json" "requests" ;;
    tplab-httpclient) "${gen[@]}" "${tplab[@]}" load "$base" -c 50 --duration "${t}s" --engine httpclient --quiet --format json --output "$work/t.json" >/dev/null; json "$work/t.json" "requests" ;;
    wrk) "${gen[@]}" wrk -t"$3" -c50 -d"${t}s" "$base" >"$work/tool.out"; awk '/requests in/ {print $1}' "$work/tool.out" ;;
    hey) "${gen[@]}" hey -c 50 -z "${t}s" "$base" >"$work/tool.out"; awk '/responses/ {gsub(/\[|\]/,""); s+=$2} END {print s}' "$work/tool.out" ;;
    ab) "${gen[@]}" ab -q -k -c 50 -t "$t" -n 100000000 "$base" >"$work/tool.out" 2>/dev/null; awk '/Complete requests/ {print $3}' "$work/tool.out" ;;
  esac
}
gen=()
# oha and bombardier (codesenberg's) are not in Debian's archive (its "bombardier" package is a game): not measured.
# The tools of round $1, in the order they run: even rounds backwards.
order() { if (( $1 % 2 )); then printf '%s\n' "${tools[@]}"; else printf '%s\n' "${tools[@]}" | tac; fi; }

echo "## Load generator: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), .NET $(dotnet --version), load average $(cut -d' ' -f1-3 /proc/loadavg)${BASELINE:+, tplab-base = $BASELINE ($(git -C "$root" rev-parse --short "$BASELINE")) against tplab = $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src || echo ' with uncommitted changes')}"
echo
# Medians over the rounds of $1 (rows "round tool requests [cpu]"): per tool, and tplab's ratio round by round.
table() {
  python3 - "$1" "$2" "$secs" <<'PY'
import collections, statistics, sys
path, kind, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = [l.split() for l in open(path)]
tools = list(dict.fromkeys(r[1] for r in rows))
per = collections.defaultdict(dict)  # tool -> round -> figure
raw = collections.defaultdict(dict)
for r in rows:
    n = int(r[2])
    per[r[1]][r[0]] = n / secs if kind == "a" else n / float(r[3])
    raw[r[1]][r[0]] = r
for t in tools:
    ratios = [per["tplab"][k] / per[t][k] for k in per[t] if k in per["tplab"] and per[t][k] > 0]
    med = statistics.median(per[t].values())
    span = f"{min(ratios):.2f}–{max(ratios):.2f}"
    if kind == "a":
        print(f"| {t} | {round(med)} | {statistics.median(ratios):.2f} | {span} |")
    else:
        reqs = statistics.median(int(x[2]) for x in raw[t].values())
        cpu = statistics.median(float(x[3]) for x in raw[t].values())
        print(f"| {t} | {round(reqs / secs)} | {cpu:.2f} | {round(med)} | {statistics.median(ratios):.2f} | {span} |")
PY
}

if [[ "$sections" == *a* ]]; then
echo "### a. Throughput, both sharing both cores: closed loop, 50 connections, ${secs} s, GET /, median of ${rounds} rounds"
echo
: >"$work/a.txt"
for round in $(seq 1 "$rounds"); do
  for tool in $(order "$round"); do
    echo "$round $tool $(run_tool "$tool" "$secs" 2)" >>"$work/a.txt"
  done
done
echo "| tool | req/s | tplab / tool | range over the rounds |"
echo "|---|---:|---:|---:|"
table "$work/a.txt" a
echo
fi
if [[ "$sections" == *b* ]]; then
echo "### b. Pinned: target on core 1, generator on core 0, ${secs} s: requests per CPU-second of the generator, median of ${rounds} rounds"
echo
taskset -a -p -c 1 "$target_pid" >/dev/null
: >"$work/b.txt"
for round in $(seq 1 "$rounds"); do
  for tool in $(order "$round"); do
    gen=(/usr/bin/time -f "%U %S" -o "$work/time" taskset -c 0)
    n=$(run_tool "$tool" "$secs" 1)
    gen=()
    echo "$round $tool $n $(awk '{print $1+$2}' "$work/time")" >>"$work/b.txt"
  done
done
echo "| tool | req/s | generator user+sys s | req per CPU-second | tplab / tool | range over the rounds |"
echo "|---|---:|---:|---:|---:|---:|"
table "$work/b.txt" b
taskset -a -p -c 0-"$(( $(nproc) - 1 ))" "$target_pid" >/dev/null
echo
fi
if [[ "$sections" == *c* ]]; then
echo "### c. Open-loop accuracy, GET /, ${secs} s"
echo
echo "| target req/s | achieved req/s | achieved / target | send lag p50 ms | send lag p99 ms | late sends (> 2 ms) | failed |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
# The last row warms the generator for 1 s first (JIT, connections), as wrk2 calibrates before it measures: a cold
# generator's first quarter second holds most of the late sends.
for spec in 1000 5000 20000 "20000 --warmup 1s"; do
  read -r rate warm <<<"$spec"
  "${tplab[@]}" load "$base" --rate "$rate" --duration "${secs}s" $warm --quiet --format json --output "$work/o.json" >/dev/null || true
  echo "| $spec | $(json "$work/o.json" "achievedRate") | $(json "$work/o.json" "f'{achievedRate/targetRate:.4f}'") | $(json "$work/o.json" "sendLagMs['p50']") | $(json "$work/o.json" "sendLagMs['p99']") | $(json "$work/o.json" "f'{lateSends} of {requests}'") | $(json "$work/o.json" "failed") |"
done
echo
fi
if [[ "$sections" == *d* ]]; then
echo "### d. Memory, open loop 5,000/s for ${mem_secs} s (RSS in MB every 5 s)"
echo
for mode in histograms csv; do
  extra=()
  [ "$mode" = csv ] && extra=(--format csv --output "$work/requests.csv")
  "${tplab[@]}" load "$base" --rate 5000 --duration "${mem_secs}s" --quiet --format json --output "$work/m.json" "${extra[@]}" >/dev/null &
  pid=$!
  samples=()
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    rss=$(awk '/VmRSS/ {print int($2/1024)}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && samples+=("$rss")
  done
  wait "$pid" || true
  echo "- $mode: $(json "$work/m.json" "requests") requests; RSS MB: ${samples[*]}"
done
fi
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
