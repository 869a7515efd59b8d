"""Issue 36's fresh sweep: hostile inputs aimed at what the round added (the scan cache, --changed-since, fix's
--config/--analyzers/--from and its behaviour checks, global.json and moved obj/ folders, solution filters, the
pull-request script, the analyzer package's summaries). sweep.py runs every line here through the real CLI with the
same rules as its own (one line, documented exit code, no CLR name, no raw control character, the expectation met,
PRESERVED files untouched); `builds()` adds the analyzer's cases, each a real `dotnet build`.

Each case is (command line, regex the answer must match or None, exit codes allowed or None).
"""
import hashlib, json, os, shutil, subprocess

WEB_CSPROJ = '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net10.0</TargetFramework><Nullable>enable</Nullable><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>\n'
WEB_PROGRAM = """var app = WebApplication.CreateBuilder(args).Build();
app.MapGet("/sleep", () => { Thread.Sleep(100); return "ok"; });
app.MapGet("/price", () => Prices.Get(1));
app.Run();

static class Prices
{
    public static decimal Get(int id) => Load(id).Result;

    private static async Task<decimal> Load(int id)
    {
        await Task.Delay(10);
        return id * 2m;
    }
}
"""
OTHER = "static class Other { public static int Two() => 2; }\n"


def git(folder, *args):
    subprocess.run(["git", "-C", folder, *args], check=True, capture_output=True,
                   env=dict(os.environ, GIT_AUTHOR_NAME="s", GIT_AUTHOR_EMAIL="s@x", GIT_COMMITTER_NAME="s", GIT_COMMITTER_EMAIL="s@x"))


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
        f.write(text)
    return path


def web(folder, extra=None):
    write(f"{folder}/Web.csproj", WEB_CSPROJ)
    write(f"{folder}/Program.cs", WEB_PROGRAM)
    write(f"{folder}/Other.cs", OTHER)
    for name, text in (extra or {}).items():
        write(f"{folder}/{name}", text)
    return folder


def setup(T, tplab):
    """Builds the fixtures: a small web app, git repositories in every state --changed-since meets, crafted caches, and
    a real cache forged after a real scan (the PR case: a cache committed to the repository)."""
    H = f"{T}/h36"
    W = web(f"{H}/web")
    subprocess.run(tplab + ["scan", W, "--no-cache"], capture_output=True)  # restores once for every case
    # git repositories: main with two commits; a feature branch changing one file; a shallow clone; an empty repo;
    # an orphan branch; a worktree (.git is a file).
    R = web(f"{H}/repo")
    write(f"{R}/.gitignore", "obj/\nbin/\n")
    git(R, "init", "-q", "-b", "main")
    git(R, "add", "-A"); git(R, "commit", "-q", "-m", "one")
    write(f"{R}/Other.cs", OTHER.replace("2;", "3;")); git(R, "commit", "-qam", "two")
    git(R, "checkout", "-q", "-b", "feature")
    write(f"{R}/Program.cs", WEB_PROGRAM.replace("Thread.Sleep(100)", "Thread.Sleep(200)")); git(R, "commit", "-qam", "feature")
    write(f"{R}/New File ü.cs", "static class N { public static void S() => System.Threading.Thread.Sleep(1); }\n")
    shutil.copytree(f"{W}/obj", f"{R}/obj")
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{R}", f"{H}/shallow"], capture_output=True, check=True)
    shutil.copytree(f"{W}/obj", f"{H}/shallow/obj")
    E = web(f"{H}/empty-repo"); git(E, "init", "-q")
    O = web(f"{H}/orphan"); git(O, "init", "-q", "-b", "main"); git(O, "add", "-A"); git(O, "commit", "-qm", "a")
    git(O, "checkout", "-q", "--orphan", "lone"); git(O, "commit", "-qm", "b")
    git(R, "worktree", "add", "-q", f"{H}/worktree", "main")
    shutil.copytree(f"{W}/obj", f"{H}/worktree/obj")
    # crafted caches, each in a folder of its own (--cache DIR)
    C = f"{H}/c"
    crafted = {
        "empty": b"", "null": b"null", "array": b"[]", "object": b"{}", "string": b'"x"', "number": b"1e999",
        "trunc": b'{"schemaVersion": 1, "tool": "tplab', "v999": b'{"schemaVersion": 999}', "vneg": b'{"schemaVersion": -1}',
        "deep": b"[" * 100000, "nul": b'{"schemaVersion": 1\x00}', "latin1": '{"tool": "\xe9"}'.encode("latin-1"),
        "utf16": '{"schemaVersion": 1}'.encode("utf-16"), "bom": b"\xef\xbb\xbf{}", "dupkey": b'{"schemaVersion": 1, "schemaVersion": 1}',
        "spaces": b" " * (3 << 20), "ctrl": b'{"schemaVersion": 1, "tool": "\x1b[2J\x07"}',
        "hugeint": b'{"schemaVersion": 99999999999999999999}', "nulls": json.dumps({"schemaVersion": 1, "tool": None, "options": None, "inputs": None, "listings": None, "result": None}).encode(),
        "inputs-null": json.dumps({"schemaVersion": 1, "tool": "x", "options": "", "inputs": [None], "listings": [], "result": {}}).encode(),
    }
    for name, data in crafted.items():
        write(f"{C}/{name}/scan-cache.json", data, "wb")
    os.makedirs(f"{C}/isdir/scan-cache.json", exist_ok=True)
    os.makedirs(f"{C}/zero", exist_ok=True); os.symlink("/dev/zero", f"{C}/zero/scan-cache.json")
    os.makedirs(f"{C}/fifo", exist_ok=True); os.mkfifo(f"{C}/fifo/scan-cache.json")
    write(f"{H}/outside/target.txt", "not a cache\n")
    os.makedirs(f"{C}/link", exist_ok=True); os.symlink(f"{H}/outside/target.txt", f"{C}/link/scan-cache.json")
    write(f"{C}/file-not-dir", "x\n")
    # the real cache, forged: every input's hash right, the findings gone (or lying)
    real = f"{C}/real"
    subprocess.run(tplab + ["scan", W, "--cache", real], capture_output=True)
    forged = []
    path = f"{real}/scan-cache.json"
    if os.path.exists(path):
        envelope = json.load(open(path, encoding="utf-8"))
        doc = envelope.get("cache", envelope)  # the sealed file keeps the cache under "cache"
        def sealed(cache):  # what a forger can write: the cache changed, the seal it cannot compute left as it was
            return json.dumps({"seal": envelope.get("seal", "00"), "cache": cache}) if "seal" in envelope else json.dumps(cache)
        clean = json.loads(json.dumps(doc))
        clean.setdefault("result", {})["findings"] = []
        write(f"{C}/forged-clean/scan-cache.json", sealed(clean))
        write(f"{C}/forged-noseal/scan-cache.json", json.dumps(clean))
        lying = json.loads(json.dumps(doc))
        for f in lying.get("result", {}).get("findings", []):
            if isinstance(f.get("call"), dict):
                for key in f["call"]:
                    if isinstance(f["call"][key], str):
                        f["call"][key] = "Evil\x1b]0;owned\x07\x1b[2J"
        write(f"{C}/forged-ctrl/scan-cache.json", sealed(lying))
        other = json.loads(json.dumps(doc)); other["tool"] = "tplab 0.0.0-other"
        write(f"{C}/other-tool/scan-cache.json", sealed(other))
        forged = ["forged-clean", "forged-noseal", "forged-ctrl", "other-tool"]
    # configs, global.json, moved obj/, solution filters
    write(f"{H}/cfg/null.json", "null"); write(f"{H}/cfg/list.json", "[]"); write(f"{H}/cfg/deep.json", "[" * 50000)
    write(f"{H}/cfg/row.json", json.dumps({"schema": 1, "blockingCalls": [{"type": "Other", "methods": ["Two"], "kind": "sleep"}]}))
    write(f"{H}/cfg/badkind.json", json.dumps({"schema": 1, "blockingCalls": [{"type": "Other", "methods": ["Two"], "kind": "nap"}]}))
    os.mkfifo(f"{H}/cfg/fifo.json")
    web(f"{H}/gj-missing", {"global.json": '{"sdk": {"version": "1.0.100", "rollForward": "disable"}}'})
    web(f"{H}/gj-bad", {"global.json": '{"sdk": {"version": '})
    web(f"{H}/gj-ctrl", {"global.json": '{"sdk": {"version": "9.9.9\\u001b[2J", "rollForward": "disable"}}'})
    web(f"{H}/gj-zero"); os.symlink("/dev/zero", f"{H}/gj-zero/global.json")
    web(f"{H}/moved-obj", {"Directory.Build.props": "<Project><PropertyGroup><BaseIntermediateOutputPath>$(MSBuildThisFileDirectory)artifacts/obj/$(MSBuildProjectName)/</BaseIntermediateOutputPath></PropertyGroup></Project>\n"})
    S = f"{H}/sln"
    web(f"{S}/Web")
    write(f"{S}/All.slnx", '<Solution><Project Path="Web/Web.csproj" /></Solution>\n')
    write(f"{S}/missing.slnf", json.dumps({"solution": {"path": "Nope.slnx", "projects": ["Web/Web.csproj"]}}))
    write(f"{S}/outside.slnf", json.dumps({"solution": {"path": "All.slnx", "projects": ["../web/Web.csproj"]}}))
    write(f"{S}/none.slnf", json.dumps({"solution": {"path": "All.slnx", "projects": []}}))
    write(f"{S}/null.slnf", "null")
    os.symlink("/dev/zero", f"{S}/zero.slnf")
    write(f"{S}/xxe.slnx", '<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]><Solution><Project Path="&x;" /></Solution>\n')
    write(f"{S}/up.slnx", '<Solution><Project Path="../../../../../../etc/passwd" /></Solution>\n')
    write(f"{S}/empty.slnx", "")
    # fix: a copy outside git for --apply, a project whose source folder is a symlink out of the tree
    web(f"{H}/fixcopy")
    shutil.copytree(f"{W}/obj", f"{H}/fixcopy/obj")
    L = web(f"{H}/linked"); write(f"{H}/elsewhere/Code/Far.cs", "static class Far { public static void S() => System.Threading.Thread.Sleep(1); }\n")
    os.symlink(f"{H}/elsewhere/Code", f"{L}/Code")
    git(L, "init", "-q"); git(L, "add", "-A"); git(L, "commit", "-qm", "a")
    # reports for fix --from: old schema, another solution's, hostile ids
    write(f"{H}/from/v2.json", json.dumps({"schemaVersion": 2, "tool": "tplab", "findings": []}))
    write(f"{H}/from/ids-null.json", json.dumps({"schemaVersion": 3, "findings": [{"id": None}]}))
    write(f"{H}/from/ids-ctrl.json", json.dumps({"schemaVersion": 3, "findings": [{"id": "tp-\x1b[2J"}]}))
    write(f"{H}/from/sarif-null.sarif", json.dumps({"version": "2.1.0", "runs": [{"results": [{"partialFingerprints": {"tplabFinding/v3": None}}]}]}))
    return H, forged


def cases(T, forged):
    H = f"{T}/h36"
    W, R, C, S = f"{H}/web", f"{H}/repo", f"{H}/c", f"{H}/sln"
    found = r"Thread\.Sleep"
    ok = {0}
    rows = [
        # --cache: the option itself
        (f"scan {W} --cache ''", r"--cache", {2}),
        (f"scan {W} --cache {W}/Program.cs", r"--cache", {2}),
        (f"scan {W} --cache /dev/null", r"--cache", {2}),
        (f"scan {W} --cache {C}/file-not-dir", r"--cache", {2}),
        (f"scan {W} --cache {C}/x --no-cache", r"--no-cache", {2}),
        (f"scan {W} --cache /proc/nope/x", None, {0, 2, 8}),
        (f"scan {W} --cache {H}/new-\x1b[2J-cache", found, ok),
        (f"scan {W} --cache {C}/isdir", found, {0, 8}),
        # --cache: what lies in the folder (each a full scan that finds both sites; none may hang or be believed)
        *[(f"scan {W} --cache {C}/{name}", found, ok) for name in (
            "empty", "null", "array", "object", "string", "number", "trunc", "v999", "vneg", "deep", "nul", "latin1",
            "utf16", "bom", "dupkey", "spaces", "ctrl", "hugeint", "nulls", "inputs-null", "zero", "fifo", "link")],
        *[(f"scan {W} --cache {C}/{name}", found, ok) for name in forged],
        (f"scan {W} --cache {C}/real", found, ok),
        (f"scan {W} --cache {C}/real --format json", r'"schema"', ok),
        (f"scan {W} --cache {C}/real --format sarif", r'"tplabFinding/v3"', ok),
        # --changed-since
        (f"scan {R} --changed-since ''", r"--changed-since", {2}),
        (f"scan {R} --changed-since -", r"--changed-since", {2}),
        (f"scan {R} --changed-since=--output=/tmp/h36-x", r"--changed-since", {2}),
        (f"scan {R} --changed-since no-such-ref", r"no such commit", {2}),
        (f"scan {R} --changed-since HEAD~99", r"no such commit", {2}),
        (f"scan {R} --changed-since 'HEAD^{{tree}}'", r"--changed-since", {2}),
        (f"scan {R} --changed-since HEAD:Program.cs", r"--changed-since", {2}),
        (f"scan {R} --changed-since main..feature", r"--changed-since", {2}),
        (f"scan {R} --changed-since '@{{u}}'", r"--changed-since", {2}),
        (f"scan {R} --changed-since ':/one'", None, {0, 2}),
        (f"scan {R} --changed-since 'refs/heads/../../etc'", r"--changed-since", {2}),
        (f"scan {R} --changed-since 'x\x1b[2J'", r"--changed-since", {2}),
        (f"scan {R} --changed-since {'a' * 10000}", r"--changed-since", {2}),
        (f"scan {R} --changed-since 'HEAD@{{1000 years ago}}'", None, {0, 2}),
        (f"scan {R} --changed-since main", found, ok),
        (f"scan {R} --changed-since main --no-cache", found, ok),
        (f"scan {R} --changed-since main --format sarif", r'"results"', ok),
        (f"scan {R} --changed-since main --format json", r'"schema"', ok),
        (f"scan {R} --changed-since main --write-baseline {T}/h36-b.json", r"--write-baseline", {2}),
        (f"scan {R} --changed-since main --fail-on error", None, {0, 11}),
        (f"scan {R} --changed-since feature", None, ok),
        (f"scan {R} --changed-since HEAD~1", found, ok),
        (f"scan {R}/Web.csproj --changed-since main", found, ok),
        (f"scan {W} --changed-since main", r"not in a git repository", {2}),
        (f"scan {H}/empty-repo --changed-since HEAD", r"--changed-since", {2}),
        (f"scan {H}/shallow --changed-since main", r"--changed-since", {2}),
        (f"scan {H}/shallow --changed-since HEAD", None, ok),
        (f"scan {H}/orphan --changed-since main", r"no common ancestor", {2}),
        (f"scan {H}/worktree --changed-since feature", None, ok),
        # --config, for scan and fix
        *[(f"{cmd} {W} --config {H}/cfg/{name} --no-restore", r"cfg/" + name.replace(".", r"\."), {2}) for cmd in ("scan", "fix")
          for name in ("null.json", "list.json", "deep.json", "badkind.json")],
        *[(f"{cmd} {W} --config {path} --no-restore", None, {2}) for cmd in ("scan", "fix") for path in ("''", "/dev/zero", H, f"{H}/cfg/fifo.json")],
        (f"scan {W} --config {H}/cfg/row.json --no-restore --no-cache", found, ok),
        (f"fix {W} --config {H}/cfg/row.json --no-restore", None, {0, 12}),
        # global.json, obj/ moved
        *[(f"{cmd} {H}/gj-missing", r"global\.json", {3}) for cmd in ("scan", "fix")],
        *[(f"{cmd} {H}/{name}", r"global\.json", {2}) for cmd in ("scan", "fix") for name in ("gj-bad", "gj-zero")],
        # an SDK version that is not one: the muxer ignores it (a warning) and takes the newest SDK, as tplab does
        *[(f"{cmd} {H}/gj-ctrl", None, {0, 12}) for cmd in ("scan", "fix")],
        (f"scan {H}/moved-obj --no-cache", found, ok),
        (f"scan {H}/moved-obj --no-cache --no-restore", None, {0, 12}),
        # solution files and filters
        (f"scan {S}/All.slnx --no-cache", found, ok),
        (f"scan {S}/missing.slnf", None, {2}),
        (f"scan {S}/outside.slnf", None, {0, 2, 12}),
        (f"scan {S}/none.slnf", None, {2, 12}),
        (f"scan {S}/null.slnf", None, {2}),
        (f"scan {S}/zero.slnf", None, {2}),
        (f"scan {S}/xxe.slnx", None, {2, 12}),
        (f"scan {S}/up.slnx", None, {2, 12}),
        (f"scan {S}/empty.slnx", None, {2}),
        (f"fix {S}/xxe.slnx", None, {2, 12}),
        (f"fix {S}/zero.slnf", None, {2}),
        # fix: options this round added, selections, outputs over inputs, writes out of the tree
        (f"fix {W} --analyzers=maybe", r"maybe", {2}),
        (f"fix {W} --allow-partial=maybe", r"maybe", {2}),
        (f"fix {W} --analyzers --no-restore", None, {0, 12}),
        (f"fix {W} --finding ''", r"not a finding id", {2}),
        (f"fix {W} --finding 'tp-\x1b[2J'", r"not a finding id", {2}),
        (f"fix {W} --finding tp-{'0' * 10000}", r"not a finding id", {2}),
        (f"fix {W} --finding TP-0123456789", None, {2}),
        (f"fix {W} --finding tp-0123456789", None, {2}),
        (f"fix {W} --max-methods 0", r"--max-methods", {2}),
        (f"fix {W} --max-methods -1", r"--max-methods", {2}),
        (f"fix {W} --max-methods 2147483648", r"--max-methods", {2}),
        (f"fix {W} --max-depth 0", r"--max-depth", {2}),
        (f"fix {W} --max-depth 99999", r"--max-depth", {2}),
        (f"fix {W} --rename bogus", r"--rename", {2}),
        (f"fix {W} --severity note", r"--severity", {2}),
        (f"fix {W} --apply --format patch", None, {2}),
        (f"fix {W} --verify true", r"--verify", {2}),
        (f"fix {W} --force", r"--force", {2}),
        (f"fix {W} --plan-writes", r"--plan-writes", {2}),
        (f"fix {W} -o {W}/Program.cs", None, {2}),
        (f"fix {W} -o {W}/Web.csproj", None, {2}),
        (f"fix {W} --plan {W}/Other.cs", None, {2}),
        (f"fix {W} -o {T}/h36-p.patch --plan {T}/h36-p.patch", None, {2}),
        (f"fix {W} --from {H}/from/v2.json", None, {0, 2, 12}),
        (f"fix {W} --from {H}/from/ids-null.json", None, {2}),
        (f"fix {W} --from {H}/from/ids-ctrl.json", None, {2}),
        (f"fix {W} --from {H}/from/sarif-null.sarif", None, {2}),
        (f"fix {W} --from /dev/zero", None, {2}),
        (f"fix {W} --from {H}/cfg/fifo.json", None, {2}),
        (f"fix {W} --from {W}", None, {2}),
        (f"fix {W} --apply", r"git", {2}),
        (f"fix {H}/fixcopy --apply --force --no-restore", None, {0, 12}),
        (f"fix {H}/fixcopy --no-restore", None, {0, 12}),
        (f"fix {H}/linked --apply --no-restore", None, {0, 2, 12}),
        (f"fix {H}/linked --apply --force --no-restore", None, {0, 2, 12}),
        (f"fix {H}/linked --no-restore -o {T}/h36-l.patch", None, {0, 2, 12}),
        (f"fix {R} --route 'GET /sleep' --no-restore", None, {0, 12}),
        (f"fix {R} --route '/\x1b[2J'", None, {2}),
        (f"fix {R} --route ''", None, {2}),
    ]
    return rows


PRESERVED = ["outside/target.txt", "elsewhere/Code/Far.cs", "repo/Program.cs"]

SUMMARIES = {
    # a referenced library's summary, hostile: each must leave the build working, never an analyzer crash (AD0001)
    "empty": "", "tabs": "\t\t\t\t", "kind": "T\tM\tNap\tx\t", "numeric-kind": "T\tM\t1\tx\t", "six-fields": "T\tM\tSleep\tx\ty\tz",
    "ctrl": "T\x1b[2J\tM\tSleep\tThread.Sleep\tA → B", "huge": ("T\tM\tSleep\tx\t" + "h → " * 20000 + "\n") * 5,
    "generic": "List`1\tGet\tSleep\tThread.Sleep\t", "unicode": "Tÿpé\tMéthod\tSleep\tThread.Sleep\t", "nul": "T\x00\tM\tSleep\tx\t",
    "many": "".join(f"T{i}\tM\tSleep\tx\t\n" for i in range(20000)), "newlines": "\n\n\n\r\n", "valid": "Lib.Slow\tWait\tSleep\tThread.Sleep\tWait",
}


def builds(T, analyzer):
    """Each hostile summary in a library's [assembly: AssemblyMetadata], a web app calling it, built with the analyzer:
    yields (name, problem or None)."""
    H = f"{T}/h36/analyzer"
    for name, value in SUMMARIES.items():
        folder = f"{H}/{name}"
        write(f"{folder}/Lib/Lib.csproj", '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>\n')
        write(f"{folder}/Lib/Slow.cs", "[assembly: System.Reflection.AssemblyMetadata(\"tplab.blocking.v1\", " + json.dumps(value) + ")]\nnamespace Lib; public static class Slow { public static void Wait() { } }\n")
        write(f"{folder}/App/App.csproj", WEB_CSPROJ.replace("</PropertyGroup>", "</PropertyGroup><ItemGroup><ProjectReference Include=\"../Lib/Lib.csproj\" /><Analyzer Include=\"" + analyzer + "\" /></ItemGroup>"))
        write(f"{folder}/App/Program.cs", 'var app = WebApplication.CreateBuilder(args).Build();\napp.MapGet("/x", () => { Lib.Slow.Wait(); return "ok"; });\napp.Run();\n')
        p = subprocess.run(["dotnet", "build", f"{folder}/App/App.csproj", "-nologo", "-clp:NoSummary", "-v", "q"], capture_output=True, timeout=600)
        out = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
        if "AD0001" in out:
            yield name, "analyzer crash (AD0001): " + next(l for l in out.splitlines() if "AD0001" in l)[:300]
        elif p.returncode != 0:
            yield name, "build failed: " + out.strip()[-300:]
        elif name == "valid" and "TPL0001" not in out:
            yield name, "a valid summary's blocking method not reported (no TPL0001)"
        else:
            yield name, None


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.exists(path) else None
