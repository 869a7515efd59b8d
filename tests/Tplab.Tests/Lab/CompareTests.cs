using Tplab.Common;
using Tplab.Lab.Comparing;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>The verdict rule of tplab compare (docs/lab.md, "Comparing runs") and its bad inputs.</summary>
[Collection(TestCollections.Lab)]
public sealed class CompareTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-compare-test-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static ResultsFile Results(string name, params (string Key, Dictionary<string, Figure> Figures)[] scenarios) =>
        new(name, null, [.. scenarios.Select(s => new ScenarioFigures(s.Key, s.Key, "completed", s.Figures))]);

    private static Dictionary<string, Figure> Figures(double mean, double p99, double rps, double failed = 0, double requests = 100, double? meanMin = null, double? meanMax = null) => new()
    {
        ["meanMs"] = new Figure(mean, meanMin, meanMax, meanMin is null ? 1 : 5),
        ["p99Ms"] = new Figure(p99),
        ["requestsPerSecond"] = new Figure(rps),
        ["failed"] = new Figure(failed),
        ["requests"] = new Figure(requests),
    };

    [Theory]
    // mean A, mean B, expected verdict (p99 and req/s unchanged)
    [InlineData(1000, 1050, Change.NoClearChange)] // +5%: within 10%
    [InlineData(1000, 1200, Change.Worse)]         // +20%
    [InlineData(1000, 500, Change.Better)]         // −50%
    [InlineData(1000, 1100, Change.NoClearChange)] // exactly the threshold is not beyond it
    public void Compare_SingleRuns_JudgesByThreshold(double meanA, double meanB, Change expected)
    {
        var c = Comparison.Compare(Results("a", ("x/s", Figures(meanA, 2000, 10))), Results("b", ("x/s", Figures(meanB, 2000, 10))));
        Assert.Equal(expected, Assert.Single(c.Scenarios).Verdict);
    }

    [Theory]
    // A's runs range 800–1200 (mean 1000); B's mean is +30% in both rows
    [InlineData(1250, 1350, Change.Worse)]         // every run of B above A's slowest: clear
    [InlineData(1100, 1500, Change.NoClearChange)] // B's runs overlap A's: noise
    public void Compare_Repeats_ChangeInsideTheSpreadIsNoise(double minB, double maxB, Change expected)
    {
        var a = Results("a", ("x/s", Figures(1000, 2000, 10, meanMin: 800, meanMax: 1200)));
        var b = Results("b", ("x/s", Figures(1300, 2000, 10, meanMin: minB, meanMax: maxB)));
        Assert.Equal(expected, Assert.Single(Comparison.Compare(a, b).Scenarios).Verdict);
    }

    [Fact]
    public void Compare_OneSideRepeated_SingleValueInsideTheRangeIsNoise()
    {
        var a = Results("a", ("x/s", Figures(1000, 2000, 10)));
        var b = Results("b", ("x/s", Figures(1300, 2000, 10, meanMin: 900, meanMax: 1700)));
        Assert.Equal(Change.NoClearChange, Assert.Single(Comparison.Compare(a, b).Scenarios).Verdict);
    }

    [Theory]
    // failed A, failed B of 100 requests: the failed share must move by more than one point
    [InlineData(0, 1, Change.NoClearChange)]
    [InlineData(0, 5, Change.Worse)]
    [InlineData(5, 0, Change.Better)]
    public void Compare_Errors_JudgedByTheFailedShare(double failedA, double failedB, Change expected)
    {
        var c = Comparison.Compare(Results("a", ("x/s", Figures(1000, 2000, 10, failedA))), Results("b", ("x/s", Figures(1000, 2000, 10, failedB))));
        Assert.Equal(expected, Assert.Single(c.Scenarios).Verdict);
    }

    [Fact]
    public void Compare_OneWorseOneBetter_IsWorseAndNamesTheFigure()
    {
        var c = Comparison.Compare(Results("a", ("x/s", Figures(1000, 2000, 10))), Results("b", ("x/s", Figures(500, 4000, 10))));
        var s = Assert.Single(c.Scenarios);
        Assert.Equal(Change.Worse, s.Verdict);
        Assert.Equal("p99 +100%", s.Reason);
        Assert.True(c.AnyWorse);
    }

    [Fact]
    public void Compare_ThroughputHigherIsBetter()
    {
        var c = Comparison.Compare(Results("a", ("x/s", Figures(1000, 2000, 10))), Results("b", ("x/s", Figures(1000, 2000, 20))));
        Assert.Equal(Change.Better, Assert.Single(c.Scenarios).Verdict);
    }

    [Fact]
    public void Compare_ScenariosOnOneSide_AreListedNotCompared()
    {
        var c = Comparison.Compare(
            Results("a", ("x/s", Figures(1000, 2000, 10)), ("x/only-a", Figures(1, 1, 1))),
            Results("b", ("x/s", Figures(1000, 2000, 10)), ("x/only-b", Figures(1, 1, 1))));
        Assert.Equal(["x/only-a"], c.OnlyInA);
        Assert.Equal(["x/only-b"], c.OnlyInB);
    }

    [Fact]
    public void Compare_NoScenarioInCommon_IsAUsageErrorNamingBothSides()
    {
        var error = Assert.Throws<TplabException>(() => Comparison.Compare(Results("a", ("x/one", Figures(1, 1, 1))), Results("b", ("y/two", Figures(1, 1, 1)))));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("no scenario in common (A: x/one; B: y/two)", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("missing", "no such results folder or summary.json")]
    [InlineData("empty-folder", "no summary.json in this folder")]
    [InlineData("garbage.json", "not a readable tplab summary.json")]
    [InlineData("other.json", "not a tplab summary.json")]
    public async Task Cli_BadInput_OneLineAndExitCode2(string input, string expected)
    {
        Directory.CreateDirectory(Path.Combine(_folder, "empty-folder"));
        File.WriteAllText(Path.Combine(_folder, "garbage.json"), "{ not json");
        File.WriteAllText(Path.Combine(_folder, "other.json"), """{ "hello": 1 }""");
        var (code, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", Path.Combine(_folder, input), Path.Combine(_folder, input));
        Assert.Equal(ExitCodes.Usage, code);
        Assert.Equal("", stdout);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("tplab: ", line, StringComparison.Ordinal);
        Assert.Contains(expected, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Cli_BadThreshold_IsAUsageError()
    {
        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", _folder, _folder, "--fail-if-worse", "ten");
        Assert.Equal(ExitCodes.Usage, code);
        Assert.Contains("--fail-if-worse must be a percentage", stderr, StringComparison.Ordinal);
    }

    // issue 21 §10: `run --plan p.yaml` then `run --plan p.yaml --min-threads 40` renames sleep to sleep-custom; the
    // first comparison users make pairs them by workload and names the knob that differs.
    [Fact]
    public void Compare_ScenarioRenamedByAPoolSetting_PairsByWorkloadAndShowsTheSettings()
    {
        static string Summary(string id, string minThreads) => $$"""
            { "schemaVersion": 1, "scenarios": [
              { "experiment": "p", "scenario": "{{id}}", "variant": "sleep", "waitMs": 1000, "loadProfile": "16 users, 32 requests",
                "minThreads": {{minThreads}}, "knobs": {}, "status": "completed",
                "load": { "schemaVersion": 1, "requests": 32, "failed": 0, "throughputPerSecond": 5, "latencyMs": { "mean": 3000, "p50": 3000, "p99": 6000, "max": 6000 } } },
              { "experiment": "p", "scenario": "delay", "variant": "delay", "waitMs": 1000, "loadProfile": "16 users, 32 requests",
                "minThreads": null, "knobs": {}, "status": "completed",
                "load": { "schemaVersion": 1, "requests": 32, "failed": 0, "throughputPerSecond": 16, "latencyMs": { "mean": 1000, "p50": 1000, "p99": 1010, "max": 1010 } } } ] }
            """;
        Directory.CreateDirectory(Path.Combine(_folder, "a"));
        Directory.CreateDirectory(Path.Combine(_folder, "b"));
        File.WriteAllText(Path.Combine(_folder, "a", "summary.json"), Summary("sleep", "null"));
        File.WriteAllText(Path.Combine(_folder, "b", "summary.json"), Summary("sleep-custom", "40"));

        var c = Comparison.Compare(ResultsFile.Read(Path.Combine(_folder, "a")), ResultsFile.Read(Path.Combine(_folder, "b")));

        Assert.Empty(c.OnlyInA);
        Assert.Empty(c.OnlyInB);
        var sleep = Assert.Single(c.Scenarios, s => s.Key == "p/sleep");
        Assert.Equal("p/sleep-custom", sleep.KeyB);
        Assert.Equal(("default", "SetMinThreads(40)"), (sleep.SettingsA, sleep.SettingsB));
        var text = new StringWriter();
        ComparisonText.Write(c, text);
        Assert.Contains("p/sleep ↔ p/sleep-custom: ", text.ToString(), StringComparison.Ordinal);
        Assert.Contains("pool settings: A default → B SetMinThreads(40)", text.ToString(), StringComparison.Ordinal);
        Assert.Null(Assert.Single(c.Scenarios, s => s.Key == "p/delay").KeyB);
    }

    [Theory]
    [InlineData("out.json", "{")]
    [InlineData("out.html", "<!DOCTYPE html>")]
    [InlineData("out.txt", "A: ")]
    public async Task Cli_OutputWithoutFormat_TakesTheFormatFromItsExtension(string name, string start)
    {
        var output = Path.Combine(_folder, name);

        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", Path.Combine(Fixtures.V1, "results-repeat"), Path.Combine(Fixtures.V1, "results-single"), "-o", output);

        Assert.True(code == ExitCodes.Ok, stderr);
        Assert.StartsWith(start, File.ReadAllText(output), StringComparison.Ordinal);
    }

    [Theory]
    // issue 21: an output that cannot be written said "internal error", exit 1
    [InlineData("/nonexistent-dir/x/out.json")]
    [InlineData("/")]
    public async Task Cli_UnwritableOutput_IsOneLineAndExit8(string output)
    {
        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", Path.Combine(Fixtures.V1, "results-repeat"), Path.Combine(Fixtures.V1, "results-single"), "-o", output, "--format", "json");

        Assert.Equal(ExitCodes.OutputFailed, code);
        Assert.Contains(output, Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }
}
