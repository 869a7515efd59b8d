using System.Globalization;
using Microsoft.Extensions.Time.Testing;
using Spectre.Console;
using Tplab.Lab.Comparing;
using Tplab.Lab.Results;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Lab.Tuning;
using Tplab.Lab.Terminal;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>
/// Every number tplab writes for the lab, compare and tune reads the same under de-DE and fr-FR (decimal comma,
/// narrow no-break space between thousands) as in the invariant culture: the outputs are identical, byte for byte.
/// (The load's formats have their own culture snapshots in FormatSnapshotTests.)
/// </summary>
[ParallelSafe]
public sealed class CultureOutputTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-culture-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    public static TheoryData<string> Outputs => ["lab table", "summary.json", "report.html", "compare text", "compare json", "tune text", "tune json"];

    [Theory]
    [MemberData(nameof(Outputs))]
    public void Output_UnderDecimalCommaCultures_IsTheInvariantOutput(string output)
    {
        var invariant = Render(output, CultureInfo.InvariantCulture);
        Assert.Matches(@"\d\.\d", invariant);
        foreach (var name in new[] { "de-DE", "fr-FR" })
        {
            Assert.Equal(invariant, Render(output, CultureInfo.GetCultureInfo(name)));
        }
    }

    private string Render(string output, CultureInfo culture)
    {
        var before = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = culture;
        try
        {
            return output switch
            {
                "lab table" => LabTable(),
                "summary.json" or "report.html" => File.ReadAllText(Path.Combine(Results(culture.Name), output)),
                "compare text" => Write(w => ComparisonText.Write(Comparison(culture.Name), w)),
                "compare json" => Write(w => ComparisonJson.Write(Comparison(culture.Name), w)),
                "tune text" => Write(w => TuneText.Write(Tune(), w)),
                _ => Write(w => TuneJson.Write(Tune(), w)),
            };
        }
        finally
        {
            CultureInfo.CurrentCulture = before;
        }
    }

    private static string Write(Action<TextWriter> write)
    {
        var w = new StringWriter(CultureInfo.InvariantCulture) { NewLine = "\n" };
        write(w);
        return w.ToString();
    }

    private static ScenarioResult[] Scenarios()
    {
        var sleep = FakeLabResults.Scenario("sleep", "sleep");
        var min = FakeLabResults.Scenario("sleep-min100", "sleep", minThreads: 100);
        return [FakeLabResults.Result(sleep, 1500, waitedStepMs: 3.3, timedOut: 3), FakeLabResults.Result(min, 1500, waitedStepMs: 0.25, starving: false)];
    }

    private static string LabTable()
    {
        var output = new StringWriter { NewLine = "\n" };
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(output) });
        console.Profile.Width = 200;
        var view = new LabConsoleView(console, interactive: false);
        var results = Scenarios();
        var experiment = FakeLabResults.Experiment([.. results.Select(r => r.Scenario)]);
        view.ExperimentStarted(experiment);
        foreach (var r in results)
        {
            view.ScenarioStarted(r.Scenario);
            view.ScenarioFinished(r);
        }
        view.ExperimentFinished(Lessons.Complete(experiment, results, SeedFigures.Load()));
        return output.ToString();
    }

    private string Results(string culture)
    {
        var folder = Path.Combine(_folder, culture.Length == 0 ? "invariant" : culture);
        Directory.CreateDirectory(folder);
        var options = new LabOptions { Time = new FakeTimeProvider() };
        var writer = new ResultsWriter(folder, options, SeedFigures.Load());
        var results = Scenarios();
        foreach (var r in results)
        {
            writer.WriteScenarioFiles(r);
            writer.AddCharts(r);
        }
        var experiment = Lessons.Complete(FakeLabResults.Experiment([.. results.Select(r => r.Scenario)]), results, SeedFigures.Load());
        writer.WriteSummary(new LabResult("results/20260101-000000", [experiment], [], false));
        return folder;
    }

    private Comparison Comparison(string culture)
    {
        var file = ResultsFile.Read(Results(culture));
        // The paths differ per culture by construction: the same name keeps the outputs comparable.
        var same = file with { Path = "results/20260101-000000/summary.json" };
        return Tplab.Lab.Comparing.Comparison.Compare(same, same with { Scenarios = [.. same.Scenarios.Reverse()] }, 12.5);
    }

    private static TuneResult Tune()
    {
        var results = Scenarios();
        var options = new TuneOptions { Scenario = results[0].Scenario, Objective = Objective.Parse("p99<1.5s"), PrecisionPercent = 2.5 };
        var trials = results.Select((r, i) => new TuneTrial(i + 1, i == 0 ? TrialPurpose.Baseline : TrialPurpose.Estimate, i == 0 ? null : 100, null,
            i == 1, i == 1 ? "p99 1.25s < 1.5s" : "p99 3.5s ≥ 1.5s", i == 1 ? 1250.5 : 3500.25, RunFigures.Of(r, i + 1), r)).ToList();
        return new TuneResult(options, "results/20260101-000000", 2, trials, new MinThreadsEstimate(39.5, 1.25, 50, "39.5 req/s × 1.25 s"), 100, false, 50, [], false);
    }
}
