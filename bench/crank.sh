#!/usr/bin/env bash
# tplab load as a crank job on two agents, end to end on loopback (issue 28 §3), against a real crank built from
# source (../shared/tools/crank beside the project, or CRANK_SRC): builds crank (cached in bench/.crank), publishes tplab (./tplab does),
# starts two crank agents and tplab's target, runs bench/crank/tplab-load.yml's two-agent profile, then checks:
#   - every agent's interval log was downloaded under its own name (a missing one is a failure: crank itself only logs it);
#   - crank's reduced request count = the sum of its agents' counts = `tplab load merge`'s count;
#   - `tplab load merge`'s percentiles = HdrHistogram.NET's own merge of the same logs (bench/crank/hdr-merge).
# Prints the figures as Markdown for BENCHMARKS.md. Usage: bench/crank.sh [RATE_PER_AGENT] [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rate="${1:-500}"
seconds="${2:-10}"
crank_src="${CRANK_SRC:-$root/../shared/tools/crank}"
cache="$root/bench/.crank"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "crank.sh: $*" >&2; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 1 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.2; done; fail "nothing answered at $1"; }

# crank, built once (about a minute on 2 cores)
if [ ! -x "$cache/bin/controller/crank" ] || [ ! -x "$cache/bin/agent/crank-agent" ]; then
  [ -x "$crank_src/build.sh" ] || fail "no crank source at $crank_src (set CRANK_SRC)"
  mkdir -p "$cache"
  "$crank_src/build.sh" "$cache/bin" >"$cache/build.log" 2>&1 || { tail -n 20 "$cache/build.log" >&2; fail "crank did not build (log: $cache/build.log)"; }
fi
crank="$cache/bin/controller/crank"
agent="$cache/bin/agent/crank-agent"

# the published tplab, as the job runs it on each agent (./tplab publishes into .build/app)
"$root/tplab" --version >/dev/null
tplab="$root/.build/app/tplab"
[ -x "$tplab" ] || fail "no published tplab at $tplab"

# HdrHistogram.NET's merge, the reference (outside the repo's central package versions)
cp "$root/bench/crank/hdr-merge/Program.cs" "$root/bench/crank/hdr-merge/HdrMerge.csproj" "$work/"
dotnet build "$work/HdrMerge.csproj" -c Release -o "$work/hdr" --nologo -v quiet -clp:ErrorsOnly >&2

# two agents and one target, all on loopback
a1=$(free_port); a2=$(free_port); tp=$(free_port)
mkdir -p "$work/agent1" "$work/agent2" "$work/downloads"
"$agent" --url "http://127.0.0.1:$a1" --build-path "$work/agent1" >"$work/agent1.log" 2>&1 & pids+=($!)
"$agent" --url "http://127.0.0.1:$a2" --build-path "$work/agent2" >"$work/agent2.log" 2>&1 & pids+=($!)
"$tplab" serve --port "$tp" --no-db >"$work/target.log" 2>&1 & pids+=($!)
wait_http "http://127.0.0.1:$a1/jobs"; wait_http "http://127.0.0.1:$a2/jobs"; wait_http "http://127.0.0.1:$tp/delay?ms=0"

# the job on both agents; crank's own wall and CPU time
(cd "$work/downloads" && /usr/bin/time -f '%e s wall, %U s user, %S s system' -o "$work/crank.time" \
  "$crank" --config "$root/bench/crank/tplab-load.yml" --scenario tplab --profile two-agents \
  --variable agent1="http://127.0.0.1:$a1" --variable agent2="http://127.0.0.1:$a2" --variable tplab="$tplab" \
  --variable serverUrl="http://127.0.0.1:$tp/delay?ms=2" --variable rate="$rate" --variable duration="$seconds" --variable warmup=0 \
  --load.options.downloadFiles 'run-*.hlog' --json "$work/crank.json" >"$work/crank.out" 2>&1) \
  || { tail -n 30 "$work/crank.out" >&2; fail "crank failed"; }

logs=("$work"/downloads/run-*.hlog)
[ "${#logs[@]}" -eq 2 ] && [ -s "${logs[0]}" ] && [ -s "${logs[1]}" ] \
  || { grep -i "download\|error" "$work/crank.out" >&2 || true; fail "expected one interval log per agent, got: $(ls "$work/downloads")"; }

"$tplab" load merge "${logs[@]}" --format json >"$work/merge.json"
dotnet "$work/hdr/HdrMerge.dll" "${logs[@]}" >"$work/hdr.json"

python3 - "$work/crank.json" "$work/merge.json" "$work/hdr.json" "$work/crank.time" "$rate" "$seconds" <<'EOF'
import json, sys
crank, merge, hdr = (json.load(open(p)) for p in sys.argv[1:4])
took = open(sys.argv[4]).read().strip()
rate, seconds = sys.argv[5], sys.argv[6]
job = crank["jobResults"]["jobs"]["load"]
agents = [next(m["value"] for m in ms if m["name"] == "http/requests") for ms in job["measurements"]]
reduced = job["results"]["http/requests"]
ok = True
def check(what, good):
    global ok
    print(f"- {what}: {'yes' if good else 'NO'}")
    ok = ok and good
print(f"crank, 2 agents on loopback, {rate} req/s per agent for {seconds} s ({took})")
print()
check(f"crank's reduced count {reduced:.0f} = sum of the agents' {' + '.join(f'{a:.0f}' for a in agents)}", reduced == sum(agents))
check(f"tplab load merge's count {merge['requests']} = that sum", merge["requests"] == sum(agents))
check(f"HdrHistogram.NET's merge count {hdr['requests']} = that sum", hdr["requests"] == sum(agents))
print()
same = True
print("| ms | crank (max over agents) | tplab load merge | HdrHistogram.NET merge |")
print("|---|---:|---:|---:|")
pairs = [("p50", "http/latency/50", "p50"), ("p90", "http/latency/90", "p90"), ("p95", "http/latency/95", "p95"),
         ("p99", "http/latency/99", "p99"), ("p99.9", "tplab/latency/99.9", "p999"), ("max", "http/latency/max", "max"), ("mean", "http/latency/mean", None)]
for label, ck, mk in pairs:
    mine = merge["latencyMs"][mk or "mean"]
    ref = hdr[mk or "mean"]
    print(f"| {label} | {job['results'].get(ck, float('nan')):.3f} | {mine:.3f} | {ref:.3f} |")
    same = same and abs(mine - ref) <= 0.0005
print()
check("tplab load merge's percentiles = HdrHistogram.NET's merge of the same logs", same)
sys.exit(0 if ok else 1)
EOF
