using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary>
/// Every reader of outside input (issue 36): a folder where a file is expected, a FIFO no one writes to, an endless
/// device, each refused in one line at once (never read whole, never waited on); and the plan fields that once gave an
/// internal error, sent another path than the one written, or created a results folder before exit 2.
/// </summary>
[ParallelSafe]
public sealed class ReaderBadInputTests
{
    private const string Url = "http://127.0.0.1:9/";
    private const string Results = "--results {tmp}/out";
    private const string Service = "name: svc\nservice:\n  command: dotnet app.dll\n";
    private const string Scenario = "scenarios:\n  - id: a\n    requests: [/]\n    load: { concurrency: 1, requests: 5 }\n";

    private static readonly Dictionary<string, string> Files = new(StringComparer.Ordinal)
    {
        ["double-slash.yaml"] = Service + "scenarios:\n  - id: a\n    requests: ['//evil.example/x']\n    load: { concurrency: 1, requests: 5 }\n",
        ["backslash.yaml"] = Service + "scenarios:\n  - id: a\n    requests: ['/\\evil.example/x']\n    load: { concurrency: 1, requests: 5 }\n",
        ["body-folder.yaml"] = Service + "scenarios:\n  - id: a\n    requests: [{ path: /a, method: POST, bodyFile: . }]\n    load: { concurrency: 1, requests: 5 }\n",
        ["body-zero.yaml"] = Service + "scenarios:\n  - id: a\n    requests: [{ path: /a, method: POST, bodyFile: /dev/zero }]\n    load: { concurrency: 1, requests: 5 }\n",
        ["body-fifo.yaml"] = Service + "scenarios:\n  - id: a\n    requests: [{ path: /a, method: POST, bodyFile: fifo }]\n    load: { concurrency: 1, requests: 5 }\n",
        ["body-nul.json"] = """{"name": "svc", "service": {"command": "dotnet app.dll"}, "scenarios": [{"id": "a", "requests": [{"path": "/a", "bodyFile": "a\u0000b"}], "load": {"concurrency": 1, "requests": 5}}]}""",
        ["no-folder.yaml"] = "name: svc\nservice:\n  command: dotnet app.dll\n  workingDirectory: no/such/folder\n" + Scenario,
        ["userinfo-url.yaml"] = "name: svc\nservice:\n  pid: 1\n  url: http://me:secret@127.0.0.1:5000/\n" + Scenario,
        ["query-url.yaml"] = "name: svc\nservice:\n  pid: 1\n  url: http://127.0.0.1:5000/?tenant=a\n" + Scenario,
        ["bad-setting.yaml"] = Service + "  minThreadsVia: setting\n  minThreadsSetting: 'A=B'\n" + Scenario,
        ["scan/baseline-text-schema.json"] = """{"schema": "2", "findings": []}""",
        ["scan/baseline-null-id.json"] = """{"schema": 2, "findings": [{"id": null, "userMethod": "A.B()", "blockingCall": "Task.Result"}]}""",
        ["scan/baseline-number-method.json"] = """{"schema": 1, "findings": [{"userMethod": 5, "blockingCall": "Task.Result"}]}""",
    };

    public static TheoryData<string, int, string> Rows => new()
    {
        // a folder where a file is expected: said in those words, not "Access denied"
        { "watch --from {tmp}", ExitCodes.Usage, "is a folder, not a file" },
        { "diagnose --trace {tmp}", ExitCodes.Usage, "is a folder, not a file" },
        { "load merge {tmp}", ExitCodes.Usage, "is a folder, not a file" },
        { $"load {Url} -d @{{tmp}} -n 1", ExitCodes.Usage, "is a folder, not a file" },
        { "load --targets {tmp} -n 1", ExitCodes.Usage, "is a folder, not a file" },
        { $"run --plan {{tmp}}/body-folder.yaml {Results}", ExitCodes.Usage, "is a folder, not a file" },
        // an empty path: said so, not the CLR's "(Parameter 'path')"
        { $"load {Url} -d @ -n 1", ExitCodes.Usage, "the path is empty" },
        // a FIFO with no writer: refused at once, never waited on
        { $"run --plan {{tmp}}/fifo {Results}", ExitCodes.Usage, "is not a regular file" },
        { $"run --plan {{tmp}}/body-fifo.yaml {Results}", ExitCodes.Usage, "is not a regular file" },
        { "load --targets {tmp}/fifo -n 1", ExitCodes.Usage, "is not a regular file" },
        { $"load {Url} -d @{{tmp}}/fifo -n 1", ExitCodes.Usage, "is not a regular file" },
        { "load merge {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        { "watch --from {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        { "diagnose --trace {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        { "diagnose --dump {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        { "compare {tmp}/fifo {tmp}/results", ExitCodes.Usage, "is not a regular file" },
        { "scan {tmp}/scan/app.csproj --baseline {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        { "scan {tmp}/scan/app.csproj --config {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        { "fix {tmp}/scan/app.csproj --from {tmp}/fifo", ExitCodes.Usage, "is not a regular file" },
        // an endless device: refused, never read past memory
        { $"run --plan /dev/zero {Results}", ExitCodes.Usage, "is not a regular file" },
        { $"run --plan {{tmp}}/body-zero.yaml {Results}", ExitCodes.Usage, "is not a regular file" },
        { "load --targets /dev/zero -n 1", ExitCodes.Usage, "is not a regular file" },
        { $"load {Url} -d @/dev/zero -n 1", ExitCodes.Usage, "is not a regular file" },
        { "load merge /dev/zero", ExitCodes.Usage, "is not a regular file" },
        { "watch --from /dev/zero", ExitCodes.Usage, "is not a regular file" },
        { "diagnose --trace /dev/zero", ExitCodes.Usage, "is not a regular file" },
        { "compare /dev/zero {tmp}/results", ExitCodes.Usage, "is not a regular file" },
        { "scan {tmp}/scan/app.csproj --baseline /dev/zero", ExitCodes.Usage, "is not a regular file" },
        { "scan {tmp}/scan/app.csproj --config /dev/zero", ExitCodes.Usage, "is not a regular file" },
        { "fix {tmp}/scan/app.csproj --from /dev/zero", ExitCodes.Usage, "is not a regular file" },
        // a baseline's fields of the wrong kind: one line, not an internal error
        { "scan {tmp}/scan/app.csproj --baseline {tmp}/scan/baseline-text-schema.json", ExitCodes.Usage, "not a tplab scan baseline" },
        { "scan {tmp}/scan/app.csproj --baseline {tmp}/scan/baseline-null-id.json", ExitCodes.Usage, "findings[0]" },
        { "scan {tmp}/scan/app.csproj --baseline {tmp}/scan/baseline-number-method.json", ExitCodes.Usage, "userMethod and blockingCall" },
        // a plan's paths mean what they say: no other host, no NUL byte, no working folder that is not there
        { $"run --plan {{tmp}}/double-slash.yaml {Results}", ExitCodes.Usage, "must start with one '/'" },
        { $"run --plan {{tmp}}/backslash.yaml {Results}", ExitCodes.Usage, "must start with one '/'" },
        { $"run --plan {{tmp}}/body-nul.json {Results}", ExitCodes.Usage, "holds a NUL byte" },
        { $"run --plan {{tmp}}/no-folder.yaml {Results}", ExitCodes.Usage, "no such folder" },
        // service fields: advice that fits the field, names checked like environment names
        { $"run --plan {{tmp}}/userinfo-url.yaml {Results}", ExitCodes.Usage, "drop the user info" },
        { $"run --plan {{tmp}}/query-url.yaml {Results}", ExitCodes.Usage, "put '?tenant=a' at the end of each request's path" },
        { $"run --plan {{tmp}}/bad-setting.yaml {Results}", ExitCodes.Usage, "service.minThreadsSetting" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names, Files);
}
