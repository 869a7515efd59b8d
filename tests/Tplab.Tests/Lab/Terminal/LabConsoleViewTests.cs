using Spectre.Console;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load;
using Tplab.Lab.Terminal;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab.Terminal;

/// <summary>The lab's terminal output rendered by Spectre into consoles of the widths people use.</summary>
[ParallelSafe]
public sealed class LabConsoleViewTests
{
    private static (IAnsiConsole Console, StringWriter Output) Console(int width, bool interactive = false)
    {
        var output = new StringWriter { NewLine = "\n" };
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = interactive ? InteractionSupport.Yes : InteractionSupport.No,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = width;
        return (console, output);
    }

    private static readonly Scenario Sleep = FakeLabResults.Scenario("sleep", "sleep");
    private static readonly Scenario SleepMin = FakeLabResults.Scenario("sleep-min100", "sleep", minThreads: 100);
    private static readonly Scenario HttpResult = FakeLabResults.Scenario("http-result-min100", "http-result", minThreads: 100);

    private static string RunExperiment(int width)
    {
        var (console, output) = Console(width);
        var view = new LabConsoleView(console, interactive: false);
        var experiment = FakeLabResults.Experiment(Sleep, SleepMin, HttpResult);
        var results = new[]
        {
            FakeLabResults.Result(Sleep, 40, waitedStepMs: 330, timedOut: 3),
            FakeLabResults.Result(SleepMin, 40, waitedStepMs: 0, starving: false),
            FakeLabResults.Result(HttpResult, 40, waitedStepMs: 2, starving: false),
        };
        view.ExperimentStarted(experiment);
        foreach (var r in results)
        {
            view.ScenarioStarted(r.Scenario);
            view.ScenarioFinished(r);
        }
        view.ExperimentFinished(Lessons.Complete(experiment, results, SeedFigures.Load()));
        return output.ToString();
    }

    [Theory]
    [InlineData(80)]
    [InlineData(120)]
    [InlineData(200)]
    public void ExperimentTable_FitsTheWidth_WithEveryRowOnOneLine(int width)
    {
        var text = RunExperiment(width);
        File.WriteAllText(Path.Combine(RepoPaths.Artifacts("terminal"), $"lab-{width}.txt"), text);
        var lines = text.Split('\n');

        Assert.All(lines, l => Assert.True(l.Length <= width, $"{l.Length} > {width}: {l}"));
        var header = Assert.Single(lines, l => l.Contains("scenario", StringComparison.Ordinal) && l.Contains("mean", StringComparison.Ordinal));
        foreach (var (label, mean) in new[] { ("sleep ", "8.67 s"), ("sleep (SetMinThreads(100))", "1.00 s"), ("http-result (SetMinThreads(100))", "1.04 s") })
        {
            // The row holds the label and its mean on one line: no cell wrapped, no number parted from its unit.
            Assert.Contains(lines, l => l.StartsWith("  " + label, StringComparison.Ordinal) && l.Contains(mean, StringComparison.Ordinal));
        }
        Assert.DoesNotContain("…", text, StringComparison.Ordinal);
        // Evidence and injections go under the table, one line per scenario.
        Assert.Contains(lines, l => l.StartsWith("  • sleep: starving", StringComparison.Ordinal));
        Assert.Contains("injections: Starvation 10, Warmup 1", string.Join(" ", lines.Select(l => l.Trim())).Replace('\u00a0', ' '), StringComparison.Ordinal);
        Assert.DoesNotContain("injections", header, StringComparison.Ordinal);
    }

    [Fact]
    public void ExperimentTable_KeepsTheMostImportantColumns_WhenNarrow()
    {
        var table = new LabTable(FakeLabResults.Experiment(Sleep, SleepMin), SeedFigures.Load());
        table.Add(FakeLabResults.Result(Sleep, 40, 330, timedOut: 3));
        table.Add(FakeLabResults.Result(SleepMin, 40, 0, starving: false));

        var narrow = table.ChooseColumns(80);
        var wide = table.ChooseColumns(200);

        Assert.Equal(["scenario", "mean", "p99"], narrow.Take(1).Concat(narrow.Where(c => c is "mean" or "p99")));
        Assert.Contains("seed mean", narrow);
        Assert.Contains("verdict", narrow);
        Assert.True(narrow.Count < wide.Count, $"80 columns kept {narrow.Count}, 200 kept {wide.Count}");
        Assert.Contains("p50", wide);
        Assert.Contains("seed max", wide);
    }

    [Fact]
    public void ScenarioProgress_ArrivingAfterTheScenarioFinished_IsNotShown()
    {
        var (console, output) = Console(120);
        var view = new LabConsoleView(console, interactive: false);
        var experiment = FakeLabResults.Experiment(Sleep);
        view.ExperimentStarted(experiment);
        view.ScenarioStarted(Sleep);
        var result = FakeLabResults.Result(Sleep, 10, 100);
        view.ScenarioFinished(result);
        view.ScenarioProgress(Sleep, new LoadProgress(TimeSpan.FromSeconds(3), 10, 7, 3, 0, 900), pool: null);
        view.ExperimentFinished(Lessons.Complete(experiment, [result], SeedFigures.Load()));

        Assert.DoesNotContain("7/40 done", output.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("▸", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExperimentStarted_WhenTheLiveDisplayCannotStart_FallsBackToPrinting_InsteadOfHanging()
    {
        var (console, output) = Console(120, interactive: true);
        var release = new TaskCompletionSource();
        // Another live display owns the console, so the view's own cannot start.
        var other = console.Live(new Text("someone else's display")).StartAsync(_ => release.Task);
        try
        {
            var view = new LabConsoleView(console, interactive: true);
            var experiment = FakeLabResults.Experiment(Sleep);
            var result = FakeLabResults.Result(Sleep, 10, 100);
            await Task.Run(() =>
            {
                view.ExperimentStarted(experiment);
                view.ScenarioStarted(Sleep);
                view.ScenarioFinished(result);
                view.ExperimentFinished(Lessons.Complete(experiment, [result], SeedFigures.Load()));
            }).WaitAsync(TimeSpan.FromSeconds(30));

            Assert.Contains("sleep: starving", output.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            release.SetResult();
            await other;
        }
    }

    [Fact]
    public void Lessons_TooLongForATableRow_ArePrintedAsLines()
    {
        var (console, output) = Console(80);
        var view = new LabConsoleView(console, interactive: false);
        var experiment = FakeLabResults.Experiment(Sleep, SleepMin) with
        {
            Lessons = [new Lesson("Thread.Sleep under a fixed arrival rate against the same handler with 100 minimum threads (mean)", "sleep", "sleep-min100")],
        };
        var results = new[] { FakeLabResults.Result(Sleep, 20, 100), FakeLabResults.Result(SleepMin, 20, 0, starving: false) };
        view.ExperimentStarted(experiment);
        view.ExperimentFinished(Lessons.Complete(experiment, results, SeedFigures.Load()));

        var lines = output.ToString().Split('\n');
        Assert.All(lines, l => Assert.True(l.Length <= 80, l));
        Assert.Contains(lines, l => l.StartsWith("  ◆ Thread.Sleep under a fixed arrival rate", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.Contains("what it shows", StringComparison.Ordinal));
    }

    [Fact]
    public void Interactive_RedrawsTheTableInPlace_AndLeavesTheFinishedOneWithoutTheProgressRow()
    {
        var screen = new StringWriter { NewLine = "\n" };
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.Yes, ColorSystem = ColorSystemSupport.NoColors, Interactive = InteractionSupport.Yes, Out = new AnsiConsoleOutput(screen) });
        console.Profile.Width = 160;
        console.Profile.Height = 50;
        var view = new LabConsoleView(console, interactive: true);
        var experiment = FakeLabResults.Experiment(Sleep);
        var result = FakeLabResults.Result(Sleep, 10, 100);

        view.ExperimentStarted(experiment);
        view.ScenarioStarted(Sleep);
        view.ScenarioProgress(Sleep, new LoadProgress(TimeSpan.FromSeconds(3), 10, 7, 3, 0, 900), pool: null);
        view.ScenarioFinished(result with { Error = "stopped at its deadline" });
        view.ExperimentFinished(Lessons.Complete(experiment, [result], SeedFigures.Load()));

        var text = screen.ToString();
        Assert.Contains("7/40 done", text, StringComparison.Ordinal);
        // After the last redraw: the finished table, the error above it, and no progress row.
        var last = text[text.LastIndexOf("\u001b[0J", StringComparison.Ordinal)..];
        Assert.DoesNotContain("▸", last, StringComparison.Ordinal);
        Assert.Contains("sleep: stopped at its deadline", text[..text.LastIndexOf("\u001b[0J", StringComparison.Ordinal)], StringComparison.Ordinal);
        Assert.Contains(": starving — starving in 10 of 12", last, StringComparison.Ordinal);
    }
}
