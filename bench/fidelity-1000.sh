#!/usr/bin/env bash
# Where the lab's overhead at 1,000 users goes (BENCHMARKS.md, "Fidelity at 1,000 users"): /delay?ms=1000 against one
# target, 1,000 users, interleaved with hey (a native peer) in each round so machine drift hits both:
#   one wave  (-n 1000 -c 1000): every request opens its connection, the connection storm alone;
#   three loops (-n 3000 -c 1000): the lab's fidelity shape; tplab's loops split from its request CSV.
# tplab's handler split (Server-Timing) says where a request's time went: waiting before the handler ran
# (connect, accept, parse, a pool thread), the handler, and after it.
# Usage: bench/fidelity-1000.sh [rounds]   (default 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
scripts/install-deps.sh bench >/dev/null
dotnet build src/Tplab.Cli/Tplab.Cli.csproj -c Release --nologo -v quiet -clp:ErrorsOnly >/dev/null
tplab=(dotnet "$root/src/Tplab.Cli/bin/Release/net10.0/tplab.dll")
work="$(mktemp -d)"
serve_pid=""
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"${tplab[@]}" serve --port 0 --no-db >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.2; done
url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.out" | head -1)delay?ms=1000"
hey -c 200 -n 600 "$url" >/dev/null   # warm the target (JIT, pool)

echo "| round | load avg | tool | shape | mean − 1 s (ms) | p50 − 1 s (ms) | loops 1/2/3 (ms) | waited / handler − 1 s / after (ms) |"
echo "|---:|---:|---|---|---:|---:|---|---|"
for r in $(seq 1 "$rounds"); do
  for n in 1000 3000; do
    shape=$([ "$n" = 1000 ] && echo "one wave" || echo "3 loops")
    load=$(cut -d' ' -f1 /proc/loadavg)
    "${tplab[@]}" load "$url" -c 1000 -n "$n" --quiet --format csv --output "$work/t.csv" --format json --output "$work/t.json"
    python3 - "$work/t.csv" "$work/t.json" "$r" "$load" "$shape" <<'PY'
import csv, json, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
lat = sorted(float(x['latencyFromScheduleMs']) - 1000 for x in rows)
users = collections.defaultdict(list)
for x in rows: users[x['threadName']].append(x)
loops = collections.defaultdict(list)
for rs in users.values():
    for i, x in enumerate(sorted(rs, key=lambda x: float(x['startMs']))): loops[i].append(float(x['latencyFromScheduleMs']) - 1000)
h = d.get('handlerTiming') or {}
m = lambda k: h.get(k, {}).get('mean')
split = f"{m('waitedForThreadMs'):.1f} / {m('handlerMs') - 1000:.1f} / {m('restMs'):.1f}" if m('handlerMs') else "–"
print(f"| {sys.argv[3]} | {sys.argv[4]} | tplab | {sys.argv[5]} | {sum(lat)/len(lat):.1f} | {lat[len(lat)//2]:.1f} | {' / '.join(f'{sum(v)/len(v):.1f}' for _, v in sorted(loops.items()))} | {split} |")
PY
    load=$(cut -d' ' -f1 /proc/loadavg)
    hey -c 1000 -n "$n" "$url" >"$work/h.txt"
    awk -v r="$r" -v l="$load" -v s="$shape" '/Average:/ {a=($2*1000)-1000} /  50% in/ {p=($3*1000)-1000} END {printf "| %s | %s | hey | %s | %.1f | %.1f | – | – |\n", r, l, s, a, p}' "$work/h.txt"
  done
done
