using Tplab.Tests.Scan.Judge;
using Tplab.Tests.Scan.Truth;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan;

/// <summary>The judge on small hand-written SARIF logs: found, missed, false, neutral, code flows, and every URI form.</summary>
[ParallelSafe]
public sealed class ScanJudgeTests
{
    // A two-root app: GET /a blocks through Service.Run (lines 10 → 20 → 30 of two files), GET /b is clean with a trap
    // at Helpers.cs:40, GET /c is waste at Api.cs:50.
    private const string Api = "tests/corpus/Demo/Api.cs";
    private const string Helpers = "tests/corpus/Demo/Helpers.cs";

    private static readonly TruthApp App = new("Demo", "tests/corpus/Demo/Demo.csproj",
    [
        Root("a-blocks", Verdict.Blocking, "error", [[Site(Api, 10), Site(Helpers, 20), Site(Helpers, 30, "Task.Result")]], []),
        Root("b-clean", Verdict.Clean, null, [], [Site(Helpers, 40, "Task.Result")]),
        Root("c-waste", Verdict.Waste, "note", [[Site(Api, 50, "Task.Run")]], []),
    ]);

    [Theory]
    // The blocking call, a helper's call or the root's own call: each finds the root.
    [InlineData("file:///work/repo/tests/corpus/Demo/Helpers.cs", 30)]
    [InlineData("file:///work/repo/tests/corpus/Demo/Helpers.cs", 20)]
    [InlineData("file:///work/repo/tests/corpus/Demo/Api.cs", 10)]
    // Plain absolute path, a path relative to the repository, relative to the project, %SRCROOT% text, escaped characters.
    [InlineData("/tmp/copy/tests/corpus/Demo/Helpers.cs", 30)]
    [InlineData("tests/corpus/Demo/Helpers.cs", 30)]
    [InlineData("Helpers.cs", 30)]
    [InlineData("%SRCROOT%/Helpers.cs", 30)]
    [InlineData("file:///work/my%20repo/tests/corpus/Demo/./Helpers.cs", 30)]
    public void Score_ResultOnTheTrueChain_FindsTheRootWithFullPrecision(string uri, int line)
    {
        var score = Score(Result("VSTHRD002", uri, line));

        Assert.Equal((1, 1), (score.Found, score.Blocking));
        Assert.Equal((1, 0), (score.OnChain, score.False));
        Assert.Equal(["VSTHRD002"], score.Roots.Single(r => r.Root.Case == "a-blocks").Rules);
    }

    [Fact]
    public void Score_ResultOnATrap_IsFalseAndFlagsTheCleanRoot()
    {
        var score = Score(Result("CA1849", "file:///r/tests/corpus/Demo/Helpers.cs", 40));

        Assert.Equal((0, 0, 1), (score.Found, score.OnChain, score.False));
        Assert.Equal("b-clean", score.Spots.Single().Trap);
        Assert.Equal(1, score.CleanRootsFlagged);
    }

    [Theory]
    // Another line of a chain file, another file, the right line number in a file of another app.
    [InlineData("file:///r/tests/corpus/Demo/Helpers.cs", 31)]
    [InlineData("file:///r/tests/corpus/Demo/Program.cs", 30)]
    [InlineData("file:///r/tests/corpus/Other/Helpers.cs", 30)]
    public void Score_ResultOffTheChain_IsFalseAndFindsNothing(string uri, int line)
    {
        var score = Score(Result("MA0042", uri, line));

        Assert.Equal((0, 0, 1), (score.Found, score.OnChain, score.False));
        Assert.Null(score.Spots.Single().Trap);
    }

    [Fact]
    public void Score_ResultOnAWasteChain_CountsNeitherWay()
    {
        var score = Score(Result("TPL003", "file:///r/tests/corpus/Demo/Api.cs", 50, level: "note"));

        Assert.Equal((0, 0), (score.OnChain, score.False));
        Assert.Equal(SpotKind.Neutral, score.Spots.Single().Kind);
        Assert.Equal("note", score.Roots.Single(r => r.Root.Case == "c-waste").Level);
    }

    [Fact]
    public void Score_TwoRulesOnOneLine_CountOnceWithBothRules()
    {
        var score = Score(
            Result("VSTHRD103", "file:///r/tests/corpus/Demo/Helpers.cs", 30),
            Result("VSTHRD002", "file:///r/tests/corpus/Demo/Helpers.cs", 30));

        Assert.Equal(1, score.OnChain);
        Assert.Equal(["VSTHRD002", "VSTHRD103"], score.Spots.Single().Rules);
    }

    [Fact]
    public void Score_RegionOverSeveralLines_CoversEachOfThem()
    {
        var score = Score(Result("CA1849", "file:///r/tests/corpus/Demo/Helpers.cs", 28, endLine: 32));

        Assert.Equal(1, score.Found);
    }

    [Fact]
    public void Score_NoResults_MissesTheRootWithoutPrecision()
    {
        var score = Score();

        Assert.Equal((0, 1, 0, 0), (score.Found, score.Blocking, score.OnChain, score.False));
        Assert.False(score.Roots.Single(r => r.Root.Case == "a-blocks").Flagged);
    }

    [Fact]
    public void Score_CodeFlowThroughEveryHop_ShowsTheChain()
    {
        var flow = Flow(("Api.cs", 9), ("Api.cs", 10), ("Helpers.cs", 20), ("Helpers.cs", 30));
        var score = Score(Result("TPL001", "%SRCROOT%/Helpers.cs", 30, flows: flow, baseIds: true));

        Assert.Equal(1, score.Found);
        Assert.True(score.Roots.Single(r => r.Root.Case == "a-blocks").ChainShown);
        Assert.Equal(1, score.ChainsShown);
    }

    [Fact]
    public void Score_CodeFlowMissingAHop_DoesNotShowTheChainButStillFinds()
    {
        var flow = Flow(("Api.cs", 10), ("Helpers.cs", 30));
        var score = Score(Result("TPL001", "Helpers.cs", 30, flows: flow, baseIds: true));

        Assert.Equal(1, score.Found);
        Assert.False(score.Roots.Single(r => r.Root.Case == "a-blocks").ChainShown);
    }

    [Fact]
    public void Score_ResultOffTheChainWithAFlowThroughIt_IsStillFalse()
    {
        // Only the primary location is judged, for every tool alike: a flow does not make a wrong location right.
        var flow = Flow(("Api.cs", 10), ("Helpers.cs", 20), ("Helpers.cs", 30));
        var score = Score(Result("TPL001", "Helpers.cs", 40, flows: flow, baseIds: true));

        Assert.Equal((0, 1), (score.Found, score.False));
    }

    [Fact]
    public void Score_FalseLineInAScratchCopy_IsNamedFromTheAppsFolder()
    {
        var score = Score(Result("MA0042", "file:///tmp/tmp.x1/repo/tests/corpus/Demo/Program.cs", 7));

        Assert.Equal("tests/corpus/Demo/Program.cs:7 MA0042", score.Spots.Single().ToString());
    }

    [Fact]
    public void Markdown_ScoredAndUnavailableTools_ReadAsTables()
    {
        var peer = new ToolRun("peer", "VSTHRD002", [Score(Result("VSTHRD002", "Helpers.cs", 30), Result("VSTHRD002", "Helpers.cs", 40))]);
        var tplab = new ToolRun("tplab", "*", [], "not available: no scan command");

        var markdown = ScanReport.Markdown([peer, tplab], [App]);

        Assert.Contains("| peer | VSTHRD002 | 1/1 | 100% | 1 | 1 | 50% | 1/1 | 0 |", markdown, StringComparison.Ordinal);
        Assert.Contains("| tplab | * | not available: no scan command |", markdown, StringComparison.Ordinal);
        Assert.Contains("| Demo | `a-blocks` (GET /a) | error: Task.Result in Type.Method | found (VSTHRD002) |", markdown, StringComparison.Ordinal);
        Assert.Contains("| Demo | `b-clean` (GET /b) | must not flag | FLAGGED (VSTHRD002) |", markdown, StringComparison.Ordinal);
        Assert.Contains("- peer: 1: `tests/corpus/Demo/Helpers.cs:40 VSTHRD002` (trap of b-clean)", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_SuppressedResult_IsLeftOut()
    {
        var log = Log("""{ "ruleId": "CA1849", "suppressions": [ { "kind": "inSource" } ], "locations": [ """ + Location("file:///r/Helpers.cs", 30, null) + " ] }");

        Assert.Empty(SarifLog.Parse(log));
    }

    [Theory]
    // Base ids declared by the log: an absolute file URI, a base relative to another base, an artifact by index.
    [InlineData("""{ "uri": "Demo/Helpers.cs", "uriBaseId": "SRCROOT" }""", "/work/repo/tests/corpus/Demo/Helpers.cs")]
    [InlineData("""{ "uri": "Helpers.cs", "uriBaseId": "PROJECT" }""", "/work/repo/tests/corpus/Demo/Helpers.cs")]
    [InlineData("""{ "index": 0 }""", "/work/repo/tests/corpus/Demo/Helpers.cs")]
    // tplab's own form: the base id is the text "%SRCROOT%", the relative URI escaped.
    [InlineData("""{ "uri": "Demo/My%20Helpers.cs", "uriBaseId": "%SRCROOT%" }""", "/work/repo/tests/corpus/Demo/My Helpers.cs")]
    // A base id the log does not declare: the relative path as written.
    [InlineData("""{ "uri": "Demo/Helpers.cs", "uriBaseId": "UNKNOWN" }""", "Demo/Helpers.cs")]
    [InlineData("""{ "uri": "/srv/app/Helpers.cs" }""", "/srv/app/Helpers.cs")]
    public void Read_ArtifactLocation_ResolvesAgainstTheLogsBases(string artifactLocation, string expected)
    {
        var log = $$"""
            { "version": "2.1.0", "runs": [ { "tool": { "driver": { "name": "tplab" } },
              "originalUriBaseIds": { "SRCROOT": { "uri": "file:///work/repo/tests/corpus/" }, "%SRCROOT%": { "uri": "file:///work/repo/tests/corpus/" }, "PROJECT": { "uri": "Demo/", "uriBaseId": "SRCROOT" } },
              "artifacts": [ { "location": { "uri": "Demo/Helpers.cs", "uriBaseId": "SRCROOT" } } ],
              "results": [ { "ruleId": "TPL001", "level": "error", "message": { "text": "m" },
                "locations": [ { "physicalLocation": { "artifactLocation": {{artifactLocation}}, "region": { "startLine": 3 } } } ] } ] } ] }
            """;

        var result = SarifLog.Parse(log).Single();

        Assert.Equal(expected, result.Spot!.Path);
        Assert.Equal(("tplab", "TPL001", "error", 3), (result.Tool, result.RuleId, result.Level, result.Spot.StartLine));
    }

    [Theory]
    [InlineData("VSTHRD002,VSTHRD103", "VSTHRD103", true)]
    [InlineData("VSTHRD002,VSTHRD103", "VSTHRD200", false)]
    [InlineData("TPL*", "TPL004", true)]
    [InlineData("", "anything", true)]
    [InlineData("*", "anything", true)]
    public void RuleFilter_Patterns_AcceptExactIdsAndPrefixes(string patterns, string ruleId, bool accepted) =>
        Assert.Equal(accepted, RuleFilter.Parse(patterns).Accepts(ruleId));

    private static AppScore Score(params string[] results) =>
        ScanJudge.Score("tool", App, SarifLog.Parse(Log(string.Join(",", results))));

    private static TruthRoot Root(string name, Verdict verdict, string? severity, IReadOnlyList<IReadOnlyList<CallSite>> chains, IReadOnlyList<CallSite> traps) =>
        new("Demo", name, new RootPlace("minimal-api", "GET", "/" + name[0], null, []), verdict, severity, "", false, chains, traps);

    private static CallSite Site(string file, int line, string? call = null) => new(file, line, "Demo.Type.Method", call, "");

    private static string Log(string results) => $$"""
        { "version": "2.1.0", "runs": [ { "tool": { "driver": { "name": "tool" } },
          "originalUriBaseIds": { "SRCROOT": { "uri": "file:///work/repo/tests/corpus/Demo/" } },
          "results": [ {{results}} ] } ] }
        """;

    private static string Result(string rule, string uri, int line, string level = "warning", int? endLine = null, string? flows = null, bool baseIds = false) =>
        $$"""{ "ruleId": "{{rule}}", "level": "{{level}}", "message": { "text": "m" }, "locations": [ {{Location(uri, line, endLine, baseIds)}} ]{{(flows is null ? "" : ", \"codeFlows\": " + flows)}} }""";

    private static string Location(string uri, int line, int? endLine, bool baseIds = false) =>
        $$"""{ "physicalLocation": { "artifactLocation": { "uri": "{{uri}}"{{(baseIds && !uri.StartsWith('%') ? ", \"uriBaseId\": \"SRCROOT\"" : "")}} }, "region": { "startLine": {{line}}{{(endLine is { } e ? $", \"endLine\": {e}" : "")}} } } }""";

    private static string Flow(params (string File, int Line)[] steps) =>
        "[ { \"threadFlows\": [ { \"locations\": [ " + string.Join(", ", steps.Select(s => "{ \"location\": " + Location(s.File, s.Line, null, baseIds: true) + " }")) + " ] } ] } ]";
}
