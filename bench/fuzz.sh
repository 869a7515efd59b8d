#!/usr/bin/env bash
# Fuzzes one reader of outside input with SharpFuzz 2.3.0 and Debian's afl++ (issue 28): bench/fuzz.sh READER SECONDS
# READER: plan-yaml plan-json targets hlog watch-jsonl compare scan-config baseline nettrace from-json from-sarif scan-cache scan-cache-seal
# (bench/fuzz/Readers.cs).
# Seeds are bench/fuzz/seeds/READER (from the tests' fixtures); findings go to bench/.fuzz/out/READER. Every crash or
# hang afl saves is a defect: replay it with an uninstrumented build (`dotnet build bench/fuzz -o /tmp/replay`, then
# `dotnet /tmp/replay/tplab-fuzz.dll READER FILE`; the instrumented one needs afl around it) and add it as a test row
# (tests/Tplab.Tests/Fuzz/Found/READER/). Prints one line: run time, execs, paths, crashes, hangs.
# Several readers can fuzz at once (each in its own output folder); the build is shared and made once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reader="${1:?usage: bench/fuzz.sh READER SECONDS}"
seconds="${2:-600}"
work="$root/bench/.fuzz"
bin="$work/bin"
mkdir -p "$work"

if ! command -v afl-fuzz >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y afl++ >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y afl++ >/dev/null; }
  else
    echo "fuzz.sh: afl-fuzz is missing: sudo apt-get install afl++" >&2; exit 2
  fi
fi
# Install the instrumenter, build and instrument once per source change: under one lock, so readers started together
# share the install and the build (two installs at once fail: "a file or directory with the same name already exists").
(
  flock 9
  if [ ! -x "$work/tools/sharpfuzz" ]; then
    dotnet tool install SharpFuzz.CommandLine --version 2.3.0 --tool-path "$work/tools" >/dev/null
  fi
  stamp="$work/instrumented"
  if [ ! -f "$stamp" ] || [ -n "$(find "$root/src" "$root/bench/fuzz" -newer "$stamp" -type f -name '*.cs' -not -path '*/obj/*' -not -path '*/bin/*' -print -quit)" ]; then
    # A new folder per build: a reader still fuzzing keeps the build it started with.
    fresh="$work/bin.$(date +%s)"
    dotnet build "$root/bench/fuzz/Tplab.Fuzz.csproj" -c Release -o "$fresh" -v quiet -clp:ErrorsOnly >/dev/null
    for dll in Tplab.Core.dll Tplab.Scan.dll YamlDotNet.dll HdrHistogram.dll; do
      "$work/tools/sharpfuzz" "$fresh/$dll" >/dev/null
    done
    ln -sfn "$fresh" "$bin"
    touch "$stamp"
  fi
) 9>"$work/build.lock"
bin="$(readlink -f "$bin")"

out="$work/out/$reader"
rm -rf "$out"
mkdir -p "$out"
# The machine's cores are shared: no CPU binding; core dumps are not needed to see a crash (the harness reports it).
export AFL_SKIP_BIN_CHECK=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
afl-fuzz -V "$seconds" -i "$root/bench/fuzz/seeds/$reader" -o "$out" -t 10000 -m none -- dotnet "$bin/tplab-fuzz.dll" "$reader" >"$out/afl.log" 2>&1 || true
stats="$out/default/fuzzer_stats"
[ -f "$stats" ] || { echo "fuzz.sh: afl-fuzz did not start; see $out/afl.log" >&2; tail -5 "$out/afl.log" >&2; exit 1; }
get() { awk -F' *: *' -v k="$1" '$1==k {print $2}' "$stats"; }
echo "$reader: $(get run_time)s, $(get execs_done) execs, $(get corpus_count) paths, $(get saved_crashes) crashes, $(get saved_hangs) hangs"
