#!/usr/bin/env python3
"""A sweep of bad and hostile inputs through the real tplab CLI, as a new user would type them (issue 21's goal).

Each input runs once, as its own process, under a rotating locale (C, de_DE, fr_FR, tr_TR); inputs marked with an
expectation run under all four. Every answer is classified: an internal error, a stack trace or a CLR type name, a
hang (no answer within the limit), an exit code that docs/exit-codes.md does not list for that command, an error that
is not one line, a raw control character on the terminal, or a change of meaning (the expectation not met).
Usage: bench/sweep.sh [TPLAB_COMMAND...]   (default: the built tplab.dll through dotnet)
"""
import os, re, shlex, subprocess, sys, tempfile, time, json

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tplab = sys.argv[1:] or ["dotnet", os.path.join(root, "src/Tplab.Cli/bin/Release/net10.0/tplab.dll")]
locales = ["C.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8", "tr_TR.UTF-8"]
limit = 90

def documented():
    """Exit codes per command, from the tables of docs/exit-codes.md."""
    text = open(os.path.join(root, "docs/exit-codes.md"), encoding="utf-8").read()
    codes, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^### `tplab ?([^`]*)`", line)
        if m:
            names = [n.strip("` ").split()[0] if n.strip("` ") else "" for n in re.findall(r"`tplab ?([^`]*)`", line)]
            current = [("load merge" if "merge" in line and n == "load" else n) for n in names]
            continue
        m = re.match(r"^\| (\d+) \|", line)
        if m and current is not None:
            for n in current:
                codes.setdefault(n, {1}).add(int(m.group(1)))
        elif line.startswith("## ") and current is not None and not line.startswith("### "):
            current = None
    return codes

DOC = documented()

def command_of(args):
    if not args or args[0].startswith("-"):
        return ""
    if args[0] == "load" and len(args) > 1 and args[1] == "merge":
        return "load merge"
    return args[0] if args[0] in DOC else ""

tmp = tempfile.mkdtemp(prefix="tplab-sweep-")
def fixture(name, text):
    path = os.path.join(tmp, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path

fixture("svc-exit.yaml", "name: svcexit\nservice: { command: 'exit 3', url: 'http://127.0.0.1:1/' }\nscenarios:\n  - { id: a, requests: [/], load: { concurrency: 1, requests: 1 } }\n")
fixture("svc-notfound.yaml", "name: nf\nservice: { command: '/no/such/binary --urls x' }\nscenarios:\n  - { id: a, requests: [/], load: { concurrency: 1, requests: 1 } }\n")
fixture("seedname.yaml", "name: ab-100\nscenarios:\n  - { id: a, variant: sleep, load: { concurrency: 1, requests: 1 } }\n")
fixture("unknown-field.yaml", "name: u\nscenarios:\n  - { id: a, variant: sleep, colour: blue, load: { concurrency: 1, requests: 1 } }\n")
fixture("neg.yaml", "name: n\nscenarios:\n  - { id: a, variant: sleep, load: { concurrency: -1, requests: 1 } }\n")
fixture("thousands.yaml", "name: t\nscenarios:\n  - { id: a, variant: sleep, load: { concurrency: '1,000', requests: 1 } }\n")
fixture("dup.yaml", "name: d\nscenarios:\n  - { id: a, variant: sleep, load: { concurrency: 1, requests: 1 } }\n  - { id: a, variant: delay, load: { concurrency: 1, requests: 1 } }\n")
fixture("badid.yaml", "name: b\nscenarios:\n  - { id: '../../etc', variant: sleep, load: { concurrency: 1, requests: 1 } }\n")
fixture("open-no-dur.yaml", "name: o\nscenarios:\n  - { id: a, variant: sleep, load: { model: open, rate: 5 } }\n")
fixture("tabs.yaml", "name: t\n\tscenarios: []\n")
fixture("list.yaml", "- a\n- b\n")
fixture("bin.yaml", "\x00\x01\x02\x1b[31m")
fixture("ctrl-name.yaml", "name: \"a\\u001b[31mb\"\nscenarios:\n  - { id: a, variant: sleep, load: { concurrency: 1, requests: 1 } }\n")
fixture("t-empty.txt", "\n\n# only comments\n")
fixture("t-nourl.txt", "GET\n")
fixture("t-ftp.txt", "GET ftp://127.0.0.1/\n")
fixture("t-body.txt", "POST http://127.0.0.1:9/\n@/no/such/body\n")
fixture("t-ctrl.txt", "GET http://127.0.0.1:9/\nX-A: \x1b[2Jcleared\n")
fixture("h-bad.hlog", "#[StartTime: abc]\n0.1,0.2,3,HISTFAKE\n")
fixture("h-empty.hlog", "")
fixture("res-a/summary.json", json.dumps({"schemaVersion": 1, "scenarios": [{"experiment": "p", "scenario": "s", "status": "completed", "load": {"schemaVersion": 1, "latencyMs": {"mean": 10, "p50": 9, "p99": 20, "max": 30}, "requests": 10, "failed": 0, "throughputPerSecond": 5}}]}))
fixture("res-b/summary.json", json.dumps({"schemaVersion": 1, "scenarios": [{"experiment": "p", "scenario": "s", "status": "completed", "load": {"latencyMs": {"mean": "fast"}, "requests": -5}}]}))
fixture("res-c/summary.json", json.dumps({"schemaVersion": 1, "scenarios": "not a list"}))
fixture("res-d/summary.json", "[1, 2, 3]")
fixture("res-e/summary.json", json.dumps({"schemaVersion": 99, "scenarios": [{}]}))
fixture("res-f/summary.json", "{\"schemaVersion\": 1, \"scenarios\": [")
fixture("notes.txt", "hello")
os.makedirs(os.path.join(tmp, "emptydir"), exist_ok=True)
T = tmp
U = "http://127.0.0.1:9/"

# (command line, expectation) -- the expectation, when given, is a regex the output must match under every locale.
cases = [
    # the tplab command itself
    ("help", None), ("--HELP", None), ("--version --help", None), ("-- run", None), ("RUN --help", None),
    ("serve-", None), ("wach 1", None), ("tune- --slo p99<1s", None),
    # serve, downstream
    ("serve --port 0x50", None), ("serve --port ١٢٣", None), ("serve --port 1e3", None), ("serve --port ' '", None),
    ("serve --min-threads 1e3", None), ("serve --min-threads 99999999999", None), ("serve --knob =", None),
    ("serve --knob 'A B=1'", None), ("serve --downstream http://", None), ("serve --downstream 'http://127.0.0.1:5001/\x1b[2J'", None),
    ("serve --port 5000 --port 5001", None), ("downstream --port 65536", None), ("downstream --port ''", None),
    # load: urls
    (f"load http://0.0.0.0:9/ -n 1", None), ("load http://localhost.:9/ -n 1", None), ("load http://127.0.0.1:99999/ -n 1", None),
    ("load http:/127.0.0.1:9/ -n 1", None), ("load //127.0.0.1:9/ -n 1", None), ("load 'http://user:pw@example.com/' -n 1", None),
    ("load http://127.0.0.1:9/%zz -n 1", None), ("load 'http://127.0.0.1:9/\x07bell' -n 1", None), ("load file:///etc/passwd -n 1", None),
    # load: numbers under every locale
    (f"load {U} --rate 2.5 --duration 2s -q", r"open loop, 2\.5/s"),
    (f"load {U} --rate 1.000 --duration 1s -q", r"open loop, 1/s"),
    (f"load {U} -n 1000 -c 10 -q --format json", r'"requests": 1000\b'),
    (f"load {U} --rate 1e1 --duration 1s -q", r"open loop, 10/s"),
    (f"load {U} --rate 2.5e-1 --duration 4s -q", r"open loop, 0\.25/s"),
    (f"load {U} --rate 1_000 --duration 1s", None), (f"load {U} --rate '1 000' --duration 1s", None),
    (f"load {U} --rate 1.000,5 --duration 1s", None), (f"load {U} --rate ٢ --duration 1s", None), (f"load {U} --rate +5 --duration 1s -q", r"open loop, 5/s"),
    (f"load {U} --rate -0 --duration 1s", None), (f"load {U} --rate 0x10 --duration 1s", None), (f"load {U} --rate 1e-400 --duration 1s", None),
    (f"load {U} -n 1.0", None), (f"load {U} -n 1e3", None), (f"load {U} -n ''", None), (f"load {U} -c 1,5 -n 2", None),
    (f"load {U} --max-in-flight 1.5 --rate 5 --duration 1s", None), (f"load {U} --loops -1", None), (f"load {U} --loops 100000001", None),
    # load: durations
    (f"load {U} --duration 1e2s", None), (f"load {U} --duration 1.5.5s", None), (f"load {U} --duration 1min", None),
    (f"load {U} --duration 10S -n 1 -q", None), (f"load {U} --duration ' 1s ' -n 1 -q", None), (f"load {U} --duration 1h1m1x", None),
    (f"load {U} --timeout 1,5s -n 1", None), (f"load {U} --timeout -5s -n 1", None), (f"load {U} --warmup 25h -n 1", None),
    (f"load {U} --ramp-up 1s --rate 5 --duration 1s", None), (f"load {U} --think 0..0.05 -n 2 -q", None), (f"load {U} --think 1s..0 -n 1", None),
    (f"load {U} --think 'a..b' -n 1", None), (f"load {U} --think 0..2h -n 1", None),
    # load: stages, thresholds, search
    (f"load {U} --stage :10", None), (f"load {U} --stage 1s:", None), (f"load {U} --stage 1s:10 --duration 1s", None),
    (f"load {U} --stage 1s:-5", None), (f"load {U} --stage 25h:1", None), (f"load {U} --threshold 'p99<' -n 1", None),
    (f"load {U} --threshold 'errors<101%' -n 1", None), (f"load {U} --threshold 'errors<1,5%' -n 1", None), (f"load {U} --threshold 'P99<1S' -n 1 -q", None),
    (f"load {U} --threshold 'p42<1s' -n 1", None), (f"load {U} --search 10..1 --threshold p99<1s --duration 1s", None),
    (f"load {U} --search 0..10 --threshold p99<1s --duration 1s", None), (f"load {U} --search 5..10 --duration 1s", None),
    # load: words, headers, bodies, outputs
    (f"load {U} --format TEXT,JSON -n 1", None), (f"load {U} --format json,csv -n 1", None), (f"load {U} --format ',' -n 1 -q", None),
    (f"load {U} --format JSON -n 1 -q", r'"schemaVersion"'), (f"load {U} --engine SOCKETS -n 1 -q", r"engine sockets"),
    (f"load {U} --engine HTTPCLİENT -n 1 -q", r"engine httpclient"), (f"load {U} -X get -n 1 -q", r"^tplab load http"),
    (f"load {U} -X '' -n 1", None), (f"load {U} -H ': x' -n 1", None), (f"load {U} -H 'X-A: \x1b[2J' -n 1", None),
    (f"load {U} -d @/ -n 1", None), (f"load {U} -d @{T}/emptydir -n 1", None), (f"load {U} -d @/dev/null -n 1 -q", None),
    (f"load {U} -o /proc/version -n 1", None), (f"load {U} -o '' -n 1", None), (f"load {U} -o /dev/null --format json -n 1 -q", None),
    (f"load {U} -o {T}/notes.txt/x.json -n 1", None), (f"load {U} -o {T}/emptydir -n 1 --format csv", None),
    (f"load --targets {T}/t-empty.txt -n 1", None), (f"load --targets {T}/t-nourl.txt -n 1", None), (f"load --targets {T}/t-ftp.txt -n 1", None),
    (f"load --targets {T}/t-body.txt -n 1", None), (f"load --targets {T}/t-ctrl.txt -n 1 -q", None), (f"load --targets {T}/emptydir -n 1", None),
    (f"load --targets /dev/null -n 1", None),
    # load merge
    (f"load merge {T}/h-bad.hlog", None), (f"load merge {T}/h-empty.hlog", None), (f"load merge {T}/emptydir", None), (f"load merge /dev/null", None),
    # run
    (f"run --plan {T}/svc-exit.yaml --results {T}/r1", None), (f"run --plan {T}/svc-notfound.yaml --results {T}/r2", None),
    (f"run --plan {T}/seedname.yaml --results {T}/r3", None), (f"run --plan {T}/unknown-field.yaml --results {T}/r4", None),
    (f"run --plan {T}/neg.yaml --results {T}/r5", None), (f"run --plan {T}/thousands.yaml --results {T}/r6", None),
    (f"run --plan {T}/dup.yaml --results {T}/r7", None), (f"run --plan {T}/badid.yaml --results {T}/r8", None),
    (f"run --plan {T}/open-no-dur.yaml --results {T}/r9", None), (f"run --plan {T}/tabs.yaml --results {T}/r10", None),
    (f"run --plan {T}/list.yaml --results {T}/r11", None), (f"run --plan {T}/bin.yaml --results {T}/r12", None),
    (f"run --plan {T}/ctrl-name.yaml --results {T}/r13", None), (f"run --repeat 1e1 --results {T}/r14", None),
    (f"run --repeat 2147483648 --results {T}/r15", None), (f"run --interval 0 --results {T}/r16", None),
    (f"run --experiment AB-100 --results {T}/r17", None), (f"run --variant SLEEP --results {T}/r18", None),
    (f"run --results /proc/nope", None), (f"run --min-threads -1 --results {T}/r19", None), (f"run --knob 'x=' --results {T}/r20", None),
    # tune
    ("tune --slo 'p99 < 1s' --variant sleep -n 1 --max-threads 1,000", None), ("tune --slo 'p99<1s' --variant sleep -n 1 --precision NaN", None),
    ("tune --slo 'p99<1s' --variant sleep -n 1 --precision 50.0001", None), ("tune --slo 'p100<1s' --variant sleep -n 1", None),
    ("tune --slo 'p99>1s' --variant sleep -n 1", None), ("tune --slo '<1s' --variant sleep -n 1", None),
    ("tune --slo 'p99<1s' --variant /sleep/ -n 1", None), ("tune --slo 'p99<1s' --variant sleep -n 0", None),
    ("tune --slo 'p99<1s' --variant sleep --duration 0s", None), ("tune --slo 'p99<1s' --variant sleep -n 1 --wait-ms 600001", None),
    (f"tune --slo 'p99<1s' --plan {T}/svc-exit.yaml --scenario a --results {T}/t1", None),
    (f"tune --slo 'p99<1s' --plan {T}/svc-exit.yaml --scenario A --results {T}/t2", None),
    (f"tune --slo 'p99<1s' --variant sleep -n 1 --plan {T}/svc-exit.yaml --results {T}/t3", None),
    ("tune --slo 'p99<1s' --variant sleep -n 1 --scenario a", None),
    # compare
    (f"compare {T}/res-a {T}/res-b", None), (f"compare {T}/res-a {T}/res-c", None), (f"compare {T}/res-a {T}/res-d", None),
    (f"compare {T}/res-a {T}/res-e", None), (f"compare {T}/res-a {T}/res-f", None), (f"compare {T}/res-a {T}/res-a --fail-if-worse 10", None),
    (f"compare {T}/res-a {T}/res-a --fail-if-worse 1001%", None), (f"compare {T}/res-a {T}/res-a --fail-if-worse '%'", None),
    (f"compare {T}/res-a {T}/res-a --format JSON", r'"schemaVersion"'), (f"compare {T}/res-a {T}/res-a -o /proc/version", None),
    (f"compare {T}/res-a {T}/res-a -o {T}/notes.txt/x", None), (f"compare {T}/notes.txt {T}/res-a", None), (f"compare /dev/null {T}/res-a", None),
    (f"compare {T}/res-a {T}/res-a --fail-if-worse 7.5%", r"exceeds 7\.5%"),
    # watch, diagnose, ps
    ("watch 99999999", None), ("watch 4194305", None), ("watch 1 --interval 1e0s", None), ("watch 1 --interval 0.25", None),
    ("watch 1 --duration 0s", None), ("watch 1 --format JSONL -o /proc/version", None), ("watch --from /dev/null --format csv", None),
    (f"watch --from {T}/notes.txt --format csv", None), (f"watch --from {T}/emptydir", None), ("watch -n ''", None),
    ("watch -n 'no-such-app-\x1b[2J'", None), ("watch 1 --on-starving diagnose=", None), ("watch 1 --on-starving 'diagnose=/proc/x'", None),
    ("watch -- /no/such/program", None), ("watch -- /etc/passwd", None), ("watch -- true", None),
    ("diagnose 99999999", None), ("diagnose -n ''", None), ("diagnose --trace /dev/null", None), (f"diagnose --trace {T}/notes.txt", None),
    (f"diagnose --dump {T}/notes.txt", None), ("diagnose --trace /etc/passwd --dump /etc/passwd", None), ("diagnose 1 --duration 0", None),
    ("ps --sample 0", None), ("ps --sample -1s", None), ("ps --sample 1e0s", None), ("ps --sample 1.5S -q", None),
]


# Issue 28's hostile new user: plans built to hurt, outputs over inputs, link cycles, options that do not apply, doing
# nothing, IPv6, escape sequences in files. Each is (line, regex the answer must match); EXIT gives the exit codes a
# line must end with, and PRESERVED the files no run may change.
laughs = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 9) + "]" for i in range(1, 10)]) + "\n"
fixture("h28/self.yaml", "a: &x [ *x ]\n")
fixture("h28/laughs.yaml", laughs)
fixture("h28/deep.yaml", "[" * 5000 + "]" * 5000)
fixture("h28/dup.json", '{ "name": "a", "name": "b", "scenarios": [] }')
fixture("h28/listkey.yaml", "? [a, b]\n: 1\n")
fixture("h28/nul.yaml", "name: a\x00b\n")
fixture("h28/bom-json.json", "\ufeff{ \"scenarios\": [ { \"variant\": \"sleep\", \"load\": { \"requests\": 1 } } ] }")
svc = "name: s\nservice: { command: ./app, url: 'http://127.0.0.1:1' }\n"
def svc_plan(name, load="{ concurrency: 1, requests: 1 }", extra="", request="/a", sid="a", service=None):
    return fixture(f"h28/{name}.yaml", (service or svc) + f"scenarios:\n  - id: '{sid}'\n    requests: [ {request} ]\n    load: {load}\n{extra}")
svc_plan("nan", "{ model: open, rate: NaN, duration: 1s }")
svc_plan("dur0", "{ concurrency: 1, duration: 0s }")
svc_plan("timeout0", "{ concurrency: 1, requests: 1, timeout: 0s }")
svc_plan("deadline0", extra="    deadline: 0s\n")
svc_plan("crlf", request='{ path: /a, headers: { X-A: "1\\r\\nX-Evil: 2" } }')
svc_plan("hname", request="{ path: /a, headers: { 'X A': 1 } }")
svc_plan("up", sid="../../../X")
svc_plan("slash", sid="a/b")
svc_plan("emptyid", sid="")
svc_plan("few", "{ model: open, rate: 0.001, duration: 1s }")
svc_plan("cmd", service="name: s\nservice: { command: '', url: 'http://127.0.0.1:1' }\n")
svc_plan("start0", service="name: s\nservice: { command: ./app, startTimeout: 0s }\n")
svc_plan("urlpath", service="name: s\nservice: { command: ./app, url: 'http://127.0.0.1:1/api/v1' }\n")
fixture("h28/proj/App.csproj", '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>\n')
fixture("h28/proj/Program.cs", "class P { static void Main() { } }\n")
fixture("h28/baseline.json", '{"schema": 1, "findings": []}\n')
fixture("h28/cfg-null.json", '{"schema": 1, "blockingCalls": [null]}')
fixture("h28/cfg-typo.json", '{"schema": 1, "blokingCalls": []}')
fixture("h28/s-null/summary.json", '{"schemaVersion": 1, "scenarios": null}')
fixture("h28/s-nullitem/summary.json", '{"schemaVersion": 1, "scenarios": [null]}')
fixture("h28/s-esc/summary.json", json.dumps({"schemaVersion": 1, "scenarios": [{"experiment": "p", "scenario": "s\x1b]0;owned\x07\x1b[2J", "status": "completed"}]}))
fixture("h28/w-huge.jsonl", '{"type":"sample","offsetSeconds":1e300,"threadCount":9,"queueLength":1,"completedPerSecond":6,"osThreads":28,"cpuPercent":4.9,"contentionsPerSecond":0,"verdict":"healthy","evidence":"x"}\n')
fixture("h28/w-esc.jsonl", '{"type":"sample","offsetSeconds":1,"threadCount":9,"queueLength":1,"completedPerSecond":6,"osThreads":28,"cpuPercent":4.9,"contentionsPerSecond":0,"verdict":"healthy","evidence":"\\u001b[2J\\u001b]0;owned\\u0007"}\n')
fixture("h28/trace.nettrace", "Nettrace\x14\x00\x00\x00!FastSerialization.1\x01")
os.makedirs(os.path.join(tmp, "h28/links/b"), exist_ok=True)
os.makedirs(os.path.join(tmp, "h28/links/app"), exist_ok=True)
fixture("h28/links/app/App.csproj", '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>\n')
os.symlink("..", os.path.join(tmp, "h28/links/app/up"))
os.symlink("b", os.path.join(tmp, "h28/links/a"))
os.symlink("../a", os.path.join(tmp, "h28/links/b/a2"))
H = f"{T}/h28"
PRESERVED = [f"{H}/proj/App.csproj", f"{H}/proj/Program.cs", f"{H}/baseline.json"]
EXIT = {}
def case(line, expect, codes):
    EXIT[line] = codes
    return (line, expect)
cases += [
    case(f"run --plan {H}/self.yaml --results {T}/h1", r"refers to a node that contains it", {2}),
    case(f"run --plan {H}/laughs.yaml --results {T}/h1", r"more than 20,000 values", {2}),
    case(f"run --plan {H}/deep.yaml --results {T}/h1", r"nested more than 32 levels", {2}),
    case(f"run --plan {H}/dup.json --results {T}/h1", r"line 1: name: the key 'name' is given twice", {2}),
    case(f"run --plan {H}/listkey.yaml --results {T}/h1", r"a key must be a plain word", {2}),
    case(f"run --plan {H}/nul.yaml --results {T}/h1", r"control character U\+0000", {2}),
    case(f"run --plan {H}/bom-json.json --results {T}/h1 --no-diagnose -q", None, {0, 2, 3, 12}),
    case(f"run --plan {H}/nan.yaml --results {T}/h1", r"scenarios\[0\]\.load\.rate: must be from", {2}),
    case(f"run --plan {H}/dur0.yaml --results {T}/h1", r"scenarios\[0\]\.load\.duration: must be from 100ms", {2}),
    case(f"run --plan {H}/timeout0.yaml --results {T}/h1", r"scenarios\[0\]\.load\.timeout", {2}),
    case(f"run --plan {H}/deadline0.yaml --results {T}/h1", r"scenarios\[0\]\.deadline: must be from 1s", {2}),
    case(f"run --plan {H}/crlf.yaml --results {T}/h1", r"headers\.X-A: holds a line break", {2}),
    case(f"run --plan {H}/hname.yaml --results {T}/h1", r"'X A' is not a valid header name", {2}),
    case(f"run --plan {H}/up.yaml --results {T}/h1", r"scenarios\[0\]\.id: must be 1 to 64", {2}),
    case(f"run --plan {H}/slash.yaml --results {T}/h1", r"scenarios\[0\]\.id: must be 1 to 64", {2}),
    case(f"run --plan {H}/emptyid.yaml --results {T}/h1", r"scenarios\[0\]\.id: must be 1 to 64", {2}),
    case(f"run --plan {H}/few.yaml --results {T}/h1", r"plans no request", {2}),
    case(f"run --plan {H}/cmd.yaml --results {T}/h1", r"service\.command: is empty", {2}),
    case(f"run --plan {H}/start0.yaml --results {T}/h1", r"service\.startTimeout: must be from 1s", {2}),
    case(f"run --plan {H}/urlpath.yaml --results {T}/h1", r"service\.url: must be the service's address only", {2}),
    case("run --plan ''", r"--plan: the path is empty", {2}),
    case(f"run --plan {H}/few.yaml --experiment ab-100", r"--experiment does not go with --plan", {2}),
    case(f"run --plan {H}/few.yaml --full", r"--full does not go with --plan", {2}),
    case(f"run --results {H}/baseline.json", r"it is a file, not a folder", {8}),
    case(f"tune --slo 'p99<1s' --variant sleep -n 1 --results {H}/baseline.json/x", r"is a file, not a folder", {8}),
    case(f"scan {H}/proj/App.csproj -o {H}/proj/App.csproj", r"is a source file of the project read", {2}),
    case(f"scan {H}/proj -o {H}/proj/Program.cs", r"is a source file of the project read", {2}),
    case(f"scan {H}/proj --plan {H}/proj/App.csproj", r"is a source file", {2}),
    case(f"scan {H}/proj -o {T}/h-x.json --write-baseline {T}/./h-x.json", r"name the same file", {2}),
    case(f"scan {H}/proj --baseline {H}/baseline.json --write-baseline {H}/baseline.json", r"is the --baseline read", {2}),
    case(f"scan {H}/proj -o {H}/proj", r"it is a folder, not a file", {8}),
    case(f"scan {H}/proj --format ''", r"--format must be one of", {2}),
    case(f"scan {H}/proj --config {H}/cfg-null.json --no-restore", r"blockingCalls\[0\]: null", {2}),
    case(f"scan {H}/proj --config {H}/cfg-typo.json --no-restore", r"blokingCalls: unknown field", {2}),
    case(f"scan {H}/links --no-restore --allow-partial", None, {0, 2, 11, 12}),
    # --help needs none of a command's required arguments ('compare --help' was an internal error)
    *[case(f"{c} --help", rf"tplab {c}", {0}) for c in ("serve", "downstream", "load", "run", "compare", "tune", "watch", "diagnose", "ps", "scan", "fix")],
    case(f"compare {H}/s-null {H}/s-null", r"no scenario in common", {2}),
    case(f"compare {H}/s-nullitem {H}/s-null", r"scenarios\[0\]: null", {2}),
    case(f"compare {H}/s-esc {H}/s-esc", None, {0}),
    case(f"compare {H}/s-esc {H}/s-esc -o {H}/s-esc/summary.json", r"is A's summary", {2}),
    case(f"watch --from {H}/w-huge.jsonl --format csv", r"offsetSeconds must be from 0", {2}),
    case(f"watch --from {H}/w-esc.jsonl --format csv", None, {0}),
    case(f"watch --from {H}/w-esc.jsonl --format live", None, {0}),
    case(f"watch --from {H}/w-esc.jsonl --format jsonl -o {H}/w-esc.jsonl", r"is the --from file", {2}),
    case("watch 1 --otlp-protocol grpc", r"--otlp-protocol needs --otlp", {2}),
    case("watch 1 --service shop", r"--service needs --otlp or --prometheus", {2}),
    case(f"watch 1 --on-starving diagnose={T}/no/such/dir/x.json", r"does not exist", {8}),
    case(f"watch 1 --on-starving diagnose={H}", r"it is a folder, not a file", {8}),
    case("watch -n NoSuchApp-h28 --all --duration 2s", r"appeared during the watch; nothing was watched", {5}),
    case("watch -n NoSuchApp-h28 --all --duration 2s --fail-on starving", r"nothing was watched", {5}),
    case("diagnose 0", r"PID must be a process id", {2}),
    case("diagnose -5", r"PID must be a process id", {2}),
    case(f"diagnose --trace {H}/trace.nettrace", r"not a readable \.nettrace", {2}),
    case(f"load {U} --rate 1e-9 --duration 1s", r"plans no request", {2}),
    case(f"load {U} --stage 1s:0", r"the stages plan no request", {2}),
    case(f"load {U} -n 1 -o {H}", r"it is a folder, not a file", {8}),
    case(f"load --targets {T}/t-ctrl.txt -n 1 -o {T}/t-ctrl.txt", r"is the --targets file", {2}),
]

# Issue 36's fresh sweep (bench/sweep36.py): the cache, --changed-since, fix's new options, global.json, solution
# filters; each line once, under one rotating locale (each is a scan or a fix: four locales would take an hour).
# SWEEP=36 runs these alone; SWEEP_ONLY=REGEX only the lines it matches; SWEEP_BUILDS=0 leaves out the analyzer's builds.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep36
ONCE = set()
if os.environ.get("SWEEP") == "36":
    cases, EXIT, PRESERVED = [], {}, []
h36, forged = sweep36.setup(T, tplab)
for line, expect, codes in sweep36.cases(T, forged):
    ONCE.add(line)
    cases.append(case(line, expect, codes) if codes else (line, expect))
PRESERVED += [f"{h36}/{p}" for p in sweep36.PRESERVED]
# SWEEP_ONLY=REGEX: only the lines it matches (a rerun of what a sweep found).
if os.environ.get("SWEEP_ONLY"):
    cases = [c for c in cases if re.search(os.environ["SWEEP_ONLY"], c[0])]

leak = re.compile(r"(^|\s)at \S+\(|\w+Exception\b|`\d+\[|System\.(Private|Runtime|Nullable|Int32|Int64|Double|Boolean|String)\b", re.M)
control = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
findings = {k: [] for k in ["internal error", "stack trace or CLR name", "hang", "undocumented exit code", "error not one line", "raw control character", "change of meaning"]}
ran = 0
started = time.time()
preserved = {path: open(path, "rb").read() for path in PRESERVED}
for i, (line, expect) in enumerate(cases):
    args = shlex.split(line)
    for loc in (locales if expect and line not in ONCE else [locales[i % len(locales)]]):
        env = dict(os.environ, LC_ALL=loc, LANG=loc)
        env.pop("TPLAB_DEBUG", None)
        ran += 1
        try:
            # issue 36's lines are scans and fixes: a minute each on a loaded machine, a hang only past ten
            p = subprocess.run(tplab + args, env=env, capture_output=True, timeout=600 if line in ONCE else limit, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            findings["hang"].append(f"[{loc}] tplab {line}")
            continue
        out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        where = f"[{loc}] tplab {line} -> {p.returncode}: {err.strip()[:200]}"
        cmd = command_of(args)
        if "internal error" in err:
            findings["internal error"].append(where)
        if leak.search(out + err):
            findings["stack trace or CLR name"].append(where)
        if p.returncode not in DOC.get(cmd, {0, 1, 2}) | {1} or (p.returncode == 1 and "internal error" not in err and cmd not in ("run", "tune")):
            findings["undocumented exit code"].append(where)
        # scan's outcomes 11 (findings at --fail-on) and 12 (read in part) are results, not errors: the report is out,
        # and the last line is scan's status line naming the exit code (docs/exit-codes.md).
        outcome = cmd == "scan" and p.returncode in (11, 12)
        if outcome:
            last = err.strip().splitlines()[-1] if err.strip() else ""
            if not (last.startswith("tplab scan: ") and f"(exit {p.returncode}" in last):
                findings["error not one line"].append(where)
        elif p.returncode not in (0, 141) and len([l for l in err.splitlines() if l.startswith("tplab: ")]) != 1:
            findings["error not one line"].append(where)
        if control.search(out + err.replace("\n", "")):
            findings["raw control character"].append(where)
        if expect and not re.search(expect, out + err, re.M):
            findings["change of meaning"].append(where)
        if line in EXIT and p.returncode not in EXIT[line]:
            findings["change of meaning"].append(where + f" (expected exit {sorted(EXIT[line])})")

for path, digest in preserved.items():
    if open(path, "rb").read() != digest:
        findings["change of meaning"].append(f"{path} was changed by a run")
# The analyzer package's cases: a hostile summary in a referenced library, each a real dotnet build.
analyzer = os.path.join(root, "src/Tplab.Analyzers/bin/Release/netstandard2.0/Tplab.Analyzers.dll")
builds = 0
if os.environ.get("SWEEP_BUILDS") == "0":
    print("tplab sweep: the analyzer's builds left out (SWEEP_BUILDS=0)")
elif os.path.exists(analyzer):
    for name, problem in sweep36.builds(T, analyzer):
        builds += 1
        if problem:
            findings["internal error" if "AD0001" in problem else "change of meaning"].append(f"analyzer summary '{name}': {problem}")
else:
    print(f"tplab sweep: skipped the analyzer's {len(sweep36.SUMMARIES)} builds: no {analyzer} (dotnet build src/Tplab.Analyzers -c Release)")
print(f"tplab sweep: {len(cases) + builds} inputs ({builds} analyzer builds), {ran} runs under {', '.join(locales)}, {time.time() - started:.0f} s")
for kind, found in findings.items():
    print(f"  {kind}: {len(found)}")
    for f in found:
        print(f"    {f}")
subprocess.run(["rm", "-rf", tmp])
sys.exit(1 if any(findings.values()) else 0)
