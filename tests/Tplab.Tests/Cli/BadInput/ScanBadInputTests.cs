using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary><c>tplab scan</c> refuses bad input before it loads anything: one line naming it, its exit code, nothing written.</summary>
[ParallelSafe]
public sealed class ScanBadInputTests
{
    public static TheoryData<string, int, string> Rows => new()
    {
        // what to scan
        { "scan {tmp}/no/such/folder", ExitCodes.Usage, "no such file or folder: {tmp}/no/such/folder" },
        { "scan {tmp}/plan.yaml", ExitCodes.Usage, "is not a solution" },
        { "scan {tmp}/results", ExitCodes.Usage, "no C# project or solution" },
        { "scan {tmp}/loose", ExitCodes.Usage, "has C# files but no project" },
        { "scan {tmp}/targets.txt extra", ExitCodes.Usage, "'extra'" },
        // words
        { "scan {tmp} --format xml", ExitCodes.Usage, "'xml'" },
        // outputs checked before the work: not an input, not another output, not a folder, in a folder
        { "scan {tmp}/scan/app.csproj -o {tmp}/scan/app.csproj", ExitCodes.Usage, "is a source file of the project read" },
        { "scan {tmp}/scan -o {tmp}/scan/Program.cs", ExitCodes.Usage, "is a source file of the project read" },
        { "scan {tmp}/scan -o {tmp}/x.json --write-baseline {tmp}/./x.json", ExitCodes.Usage, "--output and --write-baseline name the same file" },
        { "scan {tmp}/scan --baseline {tmp}/scan/baseline.json --write-baseline {tmp}/scan/baseline.json", ExitCodes.Usage, "is the --baseline read" },
        { "scan {tmp}/scan --plan {tmp}/scan/app.csproj", ExitCodes.Usage, "is a source file" },
        { "scan {tmp}/scan -o {tmp}/scan", ExitCodes.OutputFailed, "it is a folder, not a file" },
        { "scan {tmp}/scan -o {tmp}/body.txt/x.json", ExitCodes.OutputFailed, "body.txt is a file, not a folder" },
        { "scan {tmp} --format ''", ExitCodes.Usage, "--format must be one of text, json, sarif; got ''" },
        { "scan {tmp} --format", ExitCodes.Usage, "--format" },
        { "scan {tmp} --fail-on note", ExitCodes.Usage, "'note'" },
        { "scan {tmp} --fail-on", ExitCodes.Usage, "--fail-on" },
        { "scan {tmp} --include-tests=maybe", ExitCodes.Usage, "'maybe'" },
        { "scan {tmp} --allow-partial=maybe", ExitCodes.Usage, "'maybe'" },
        { "scan {tmp} --no-restore=maybe", ExitCodes.Usage, "'maybe'" },
        { "scan {tmp} --verbose=maybe", ExitCodes.Usage, "'maybe'" },
        { "scan {tmp} --group-by module", ExitCodes.Usage, "'module'" },
        { "scan {tmp} --group-by", ExitCodes.Usage, "--group-by" },
        // the text report's length: a whole number of sites, at least one, read in the invariant culture
        { "scan {tmp} --top 0", ExitCodes.Usage, "--top must be 1 or more, got 0" },
        { "scan {tmp} --top -3", ExitCodes.Usage, "--top must be 1 or more, got -3" },
        { "scan {tmp} --top ten", ExitCodes.Usage, "'ten'" },
        { "scan {tmp} --top 2,5", ExitCodes.Usage, "'2,5'" },
        { "scan {tmp} --top", ExitCodes.Usage, "--top" },
        // the walk's bound: a whole number of calls in 2..200, read in the invariant culture
        { "scan {tmp} --max-depth 1", ExitCodes.Usage, "--max-depth must be between 2 and 200 calls, got 1" },
        { "scan {tmp} --max-depth 201", ExitCodes.Usage, "--max-depth must be between 2 and 200 calls, got 201" },
        { "scan {tmp} --max-depth 4,5", ExitCodes.Usage, "'4,5'" },
        { "scan {tmp} --max-depth", ExitCodes.Usage, "--max-depth" },
        // files: read, or opened for writing, before any project loads
        { "scan {tmp} -o {tmp}/no/such/folder/scan.json", ExitCodes.OutputFailed, "{tmp}/no/such/folder/scan.json" },
        { "scan {tmp} --output", ExitCodes.Usage, "--output" },
        { "scan {tmp}/scan/app.csproj --baseline {tmp}/missing.json", ExitCodes.Usage, "{tmp}/missing.json" },
        { "scan {tmp}/scan/app.csproj --baseline {tmp}/not-json.json", ExitCodes.Usage, "not a tplab scan baseline" },
        { "scan {tmp} --write-baseline {tmp}/no/such/folder/b.json", ExitCodes.OutputFailed, "{tmp}/no/such/folder/b.json" },
        { "scan {tmp}/scan/app.csproj --config {tmp}/not-json.json", ExitCodes.Usage, "not a tplab scan config" },
        { "scan {tmp}/scan/app.csproj --config {tmp}/missing.json", ExitCodes.Usage, "{tmp}/missing.json" },
        // the cache and the pull request's ref: checked before anything loads (git is asked before MSBuild)
        { "scan {tmp} --cache ''", ExitCodes.Usage, "--cache '': give a folder" },
        { "scan {tmp} --cache {tmp}/plan.yaml", ExitCodes.Usage, "give a folder (it is created when missing), not a file" },
        { "scan {tmp} --cache {tmp}/c --no-cache", ExitCodes.Usage, "--cache DIR and --no-cache contradict each other" },
        { "scan {tmp} --cache", ExitCodes.Usage, "--cache" },
        { "scan {tmp} --no-cache=maybe", ExitCodes.Usage, "'maybe'" },
        { "scan {tmp}/scan --changed-since main", ExitCodes.Usage, "is not in a git repository" },
        { "scan {tmp} --changed-since ''", ExitCodes.Usage, "--changed-since '': give a git commit, branch or tag" },
        { "scan {tmp} --changed-since=-p", ExitCodes.Usage, "--changed-since '-p': give a git commit, branch or tag" },
        { "scan {tmp}/scan --changed-since main --write-baseline {tmp}/b.json", ExitCodes.Usage, "does not go with --changed-since" },
        { "scan {tmp} --changed-since", ExitCodes.Usage, "--changed-since" },
        { "scan {tmp} --watch --fail-on error", ExitCodes.Usage, "--watch rewrites the report after every change until Ctrl+C; --fail-on belongs to a scan that ends" },
        { "scan {tmp} --watch --changed-since main", ExitCodes.Usage, "--changed-since belongs to a scan that ends" },
        { "scan {tmp} --watch --plan {tmp}/plan.json", ExitCodes.Usage, "--plan belongs to a scan that ends" },
        // the plan: opened for writing before any project loads; --plan-writes only says something with --plan
        { "scan {tmp} --plan {tmp}/no/such/folder/plan.yaml", ExitCodes.OutputFailed, "{tmp}/no/such/folder/plan.yaml" },
        { "scan {tmp} --plan", ExitCodes.Usage, "--plan" },
        { "scan {tmp} --plan-writes", ExitCodes.Usage, "--plan-writes goes with --plan FILE" },
        { "scan {tmp} --plan {tmp}/p.yaml --plan-writes=maybe", ExitCodes.Usage, "'maybe'" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names, Files);

    private static readonly Dictionary<string, string> Files = new(StringComparer.Ordinal)
    {
        ["loose/Program.cs"] = "System.Console.WriteLine(1);\n",
    };
}
