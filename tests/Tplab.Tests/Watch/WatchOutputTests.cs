using System.Globalization;
using System.Text.Json;
using Spectre.Console;
using Tplab.Watch;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>Renderers read records only; their output is checked line by line, in a culture with a decimal comma too.</summary>
[ParallelSafe]
public sealed class WatchOutputTests
{
    private static readonly ThreadPoolSample Starving = new(TimeSpan.FromSeconds(3.5), 4, 94, 2.5, 21, 3.25, 0, 120, PoolVerdict.Starving,
        "queue 94 and rising, 2 threads/s added by starvation injection, threads 4, CPU 3%");

    private static readonly ThreadPoolInjection Injection = new(TimeSpan.FromSeconds(3.1), 4, InjectionReason.Starvation, 6, 1.5);

    private static PoolTimeline Timeline() => new(42, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(4), [Starving], [Injection], null, processExited: false);

    [Fact]
    public void LiveFrame_PutsTheVerdictLineSecond_UnderTheTitle()
    {
        var lines = LiveFrame.Lines("tplab watch: pid 42", Starving, [Injection], Starving, 4, 94);
        Assert.Equal("tplab watch: pid 42, at 3.5 s", lines[0]);
        Assert.Equal("STARVING: queue 94 and rising, 2 threads/s added by starvation injection, threads 4, CPU 3%", lines[1]);
        Assert.Contains(lines, l => l.StartsWith("  queue length", StringComparison.Ordinal) && l.Contains("94", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("Starvation 1, CooperativeBlocking 0", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("  last injection", StringComparison.Ordinal) && l.Contains("Starvation at 3.1 s", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("en-US")]
    [InlineData("de-DE")]
    public void Jsonl_IsInvariant_OneObjectPerRecord_SummaryLast(string culture)
    {
        var saved = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = new CultureInfo(culture);
        try
        {
            using var text = new StringWriter(CultureInfo.InvariantCulture);
            JsonlWatchWriter.WriteTimeline(Timeline(), text);
            var lines = text.ToString().Trim().Split('\n');
            Assert.Equal(3, lines.Length);
            Assert.Equal("{\"type\":\"injection\",\"offsetSeconds\":3.1,\"newThreadCount\":4,\"reason\":\"Starvation\",\"reasonCode\":6,\"averageThroughput\":1.5}", lines[0].Trim());
            using var sample = JsonDocument.Parse(lines[1]);
            Assert.Equal(3.3, sample.RootElement.GetProperty("cpuPercent").GetDouble());
            Assert.Equal("starving", sample.RootElement.GetProperty("verdict").GetString());
            using var summary = JsonDocument.Parse(lines[2]);
            Assert.Equal(1, summary.RootElement.GetProperty("injectionsByReason").GetProperty("Starvation").GetInt32());
            Assert.Equal("starving", summary.RootElement.GetProperty("verdict").GetString());
        }
        finally
        {
            CultureInfo.CurrentCulture = saved;
        }
    }

    [Fact]
    public void Csv_CountsInjectionsIntoTheNextRow_AndQuotesEvidence()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        var csv = new CsvWatchWriter(text);
        csv.OnInjection(Injection);
        csv.OnSample(Starving);
        csv.OnCompleted(Timeline());
        var lines = text.ToString().Trim().Split('\n');
        Assert.Equal(CsvWatchWriter.Header, lines[0].Trim());
        // The delay's cells are empty (not measured); the estimate is 94 queued ÷ 2.5 completed/s.
        Assert.StartsWith("0,3.500,4,94,2.5,21,3.3,0.0,1,0,,,,,,,37600.000,starving,\"queue 94", lines[1], StringComparison.Ordinal);
    }

    [Fact]
    public void LiveView_OnAConsoleWithoutAnsi_WritesTheVerdictLinePerSample()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(text) });
        console.Profile.Width = 400;
        var view = new LiveWatchView(console, "tplab watch: pid 42");
        view.OnSample(Starving);
        view.OnCompleted(Timeline());
        var lines = text.ToString().Trim().Split('\n');
        Assert.StartsWith("STARVING: queue 94", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("watch starving:", lines[^1], StringComparison.Ordinal);
    }
}

/// <summary>The live view of several processes: a row per process, the measured delay beside the estimate.</summary>
[ParallelSafe]
public sealed class FleetLiveViewTests
{
    [Fact]
    public void Lines_TwoProcesses_OneRowEach_ExitedMarked()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.Yes, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(text) });
        console.Profile.Width = 200;
        var view = new FleetLiveView(console, "tplab watch: MyApi");
        var a = new ThreadPoolSample(TimeSpan.FromSeconds(1), 4, 0, 100, 20, 5, 0, 10, PoolVerdict.Healthy, "ok") { ProcessId = 11 };
        var b = new ThreadPoolSample(TimeSpan.FromSeconds(1), 9, 50, 10, 30, 2, 0, 10, PoolVerdict.Starving, "queue 50") { ProcessId = 12 };
        view.OnSample(a);
        view.OnSample(b);
        view.OnCompleted(new PoolTimeline(12, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), [b], [], null, processExited: true));

        var lines = view.Lines(TimeSpan.FromSeconds(2));

        Assert.Equal(4, lines.Count);
        Assert.Contains("2 processes", lines[0], StringComparison.Ordinal);
        Assert.Matches(@"^\s+11 .+ healthy\s+4\s+0\s+100", lines[2]);
        // 50 queued at 10 completed/s: 5 s estimated; the delay was not measured (off).
        Assert.Matches(@"^\s+12 .+ exited\s+9\s+50\s+10\s+2%\s+off\s+5\.0 s", lines[3]);
    }
}

/// <summary>A watch that took no sample with the runtime's counters names no verdict in any format.</summary>
[ParallelSafe]
public sealed class NoVerdictOutputTests
{
    private static readonly PoolTimeline Empty = new(42, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(0.9), [], [], null, processExited: false);

    [Fact]
    public void Timeline_NoSample_SaysNoVerdictAndWhy()
    {
        Assert.False(Empty.HasVerdict);
        Assert.StartsWith("no verdict: the runtime's counters arrive after about 1 s", Empty.Evidence, StringComparison.Ordinal);
    }

    [Fact]
    public void Jsonl_NoSample_SummaryVerdictIsNull()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        JsonlWatchWriter.WriteTimeline(Empty, text);
        using var summary = JsonDocument.Parse(text.ToString().Trim());

        Assert.Equal(JsonValueKind.Null, summary.RootElement.GetProperty("verdict").ValueKind);
    }

    [Fact]
    public void LiveView_NoSample_PrintsNoVerdictWord()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(text) });
        console.Profile.Width = 400;

        new LiveWatchView(console, "t").OnCompleted(Empty);

        Assert.StartsWith("no verdict:", text.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("healthy", text.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Html_NoSample_HasNoVerdictWord()
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);

        HtmlWatchWriter.Write(Empty, text);

        Assert.Contains("\"verdict\":null", text.ToString(), StringComparison.Ordinal);
    }
}
