using System.Globalization;
using System.Text.RegularExpressions;
using Tplab.Tests.Support;
using Tplab.Watch.Output;

namespace Tplab.Tests.Reports;

/// <summary>
/// The reports of `tplab load` and `tplab watch` from the CLI against the real target (which stamps Server-Timing):
/// load's text output splits each request's time and its html page shows the same split, summing to the latency;
/// watch's html page draws the pool.
/// </summary>
[Collection(TestCollections.Lab)]
public sealed partial class ReportsEndToEndTests(TargetFixture fixture) : IClassFixture<TargetFixture>, IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-load-report-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [GeneratedRegex(@"Split \(mean\)  waited for a thread ([\d.]+) \+ handler ([\d.]+) \+ rest ([\d.]+) = ([\d.]+) ms \((\d+) of (\d+) requests")]
    private static partial Regex SplitLine();

    [BrowserFact]
    public async Task Load_WithTheHandlerStamp_PrintsTheSplit_AndWritesAPageThatShowsIt()
    {
        var html = Path.Combine(_folder, "load.html");
        var (code, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1),
            "load", fixture.Url("/sleep?ms=300").ToString(), "-n", "12", "-c", "12", "--format", "text", "--output", "-", "--output", html); // html: from the extension
        Assert.True(code == 0, $"exit {code}: {stderr}");

        var m = SplitLine().Match(stdout);
        Assert.True(m.Success, stdout);
        double N(int group) => double.Parse(m.Groups[group].Value, CultureInfo.InvariantCulture);
        Assert.InRange(N(1) + N(2) + N(3), N(4) - 0.02, N(4) + 0.02);
        // The handler slept 300 ms in every request (timers may end a millisecond early); every response had the stamp.
        Assert.True(N(2) >= 299, $"handler mean {N(2)} ms");
        Assert.Equal(("12", "12"), (m.Groups[5].Value, m.Groups[6].Value));

        var view = await Browser.OpenAsync(html, Path.Combine(RepoPaths.Artifacts("screenshots"), "report-load-e2e.png"));
        HtmlReportTests.AssertReadable(view);
        var split = Assert.Single(view.Splits);
        Assert.InRange(split.Latency, N(4) - 0.01, N(4) + 0.01);
    }

    [BrowserFact]
    public async Task Watch_FormatHtml_WritesThePoolChartPage()
    {
        var html = Path.Combine(_folder, "watch.html");
        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1),
            "watch", fixture.Target.ProcessId.ToString(CultureInfo.InvariantCulture), "--interval", "250ms", "--duration", "2s", "--format", "html", "--output", html);
        Assert.True(code == 0, $"exit {code}: {stderr}");

        var view = await Browser.OpenAsync(html, Path.Combine(RepoPaths.Artifacts("screenshots"), "report-watch-e2e.png"));
        HtmlReportTests.AssertReadable(view);
        Assert.Equal(["pool-watch", "delay-watch"], view.Charts.Select(c => c.Id));
        Assert.Contains("pool threads", view.Legends, StringComparison.Ordinal);
        Assert.Contains("estimate (queue ÷ completed/s)", view.Legends, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Watch_From_WritesASavedJsonlAgainAsAPage()
    {
        var jsonl = Path.Combine(_folder, "saved.jsonl");
        using (var writer = new StreamWriter(jsonl))
        {
            JsonlWatchWriter.WriteTimeline(FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 10, 100).Timeline!, writer);
        }
        var html = Path.Combine(_folder, "saved.html");

        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1), "watch", "--from", jsonl, "--format", "html", "--output", html);

        Assert.True(code == 0, $"exit {code}: {stderr}");
        var page = await File.ReadAllTextAsync(html);
        Assert.Contains("\"kind\":\"watch\"", page, StringComparison.Ordinal);
        Assert.Contains("\"verdict\":\"starving\"", page, StringComparison.Ordinal);
        var (bad, _, badErr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1), "watch", "--from", html, "--format", "html", "--output", html + ".2");
        Assert.Equal(2, bad);
        Assert.Contains("line 1 is not a tplab watch record", badErr, StringComparison.Ordinal);
    }
}
