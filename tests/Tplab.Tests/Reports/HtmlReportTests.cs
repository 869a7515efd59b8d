using System.Globalization;
using Tplab.Lab.Results;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load.Formats;
using Tplab.Watch.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Reports;

/// <summary>
/// The report pages opened in a real headless Chromium at 1,280 px, the way a user opens them: no console errors, no
/// request leaving the file, nothing wider than the window, a point in every chart, no "NaN" or "Infinity" in any
/// axis or legend, and each request's split summing to its latency. Screenshots go to artifacts/screenshots.
/// </summary>
public sealed class HtmlReportTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-report-test-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    internal static void AssertReadable(BrowserView view)
    {
        Assert.True(view.Rendered, "report.js did not finish");
        Assert.Empty(view.ConsoleErrors);
        Assert.Empty(view.ExternalRequests);
        Assert.False(view.Overflow, "the page is wider than 1,280 px");
        Assert.NotEmpty(view.Charts);
        Assert.All(view.Charts, c => Assert.True(c.Points > 0, $"{c.Id} has no points"));
        foreach (var bad in new[] { "NaN", "Infinity", "undefined" })
        {
            Assert.All(view.Charts, c => Assert.DoesNotContain(c.Ticks, t => t.Contains(bad, StringComparison.Ordinal)));
            Assert.DoesNotContain(bad, view.Legends, StringComparison.Ordinal);
            Assert.DoesNotContain(bad, view.Text, StringComparison.Ordinal);
        }
        Assert.All(view.Charts.Where(c => !c.Id.StartsWith("seed-", StringComparison.Ordinal) && !c.Id.StartsWith("lessons-", StringComparison.Ordinal)),
            c => Assert.NotEmpty(c.Ticks));
        // The parts of the mean request add up to the mean latency (each rounded to 0.001 ms in the JSON).
        Assert.All(view.Splits, s => Assert.InRange(s.Waited + s.Handler + s.Rest, s.Latency - 0.01, s.Latency + 0.01));
    }

    [BrowserFact]
    public async Task LabReport_OpensOfflineInChromium_ReadableWithEveryChartDrawn()
    {
        var experiment = FakeLabResults.Experiment(FakeLabResults.Scenario("sleep", "sleep"), FakeLabResults.Scenario("sleep-min100", "sleep", 100));
        var results = new[]
        {
            FakeLabResults.Result(experiment.Scenarios[0], 40, waitedStepMs: 330, timedOut: 3),
            FakeLabResults.Result(experiment.Scenarios[1], 40, waitedStepMs: 0, starving: false),
        };
        var seeds = SeedFigures.Load();
        var writer = new ResultsWriter(_folder, new LabOptions(), seeds);
        foreach (var r in results)
        {
            writer.WriteScenarioFiles(r);
            writer.AddCharts(r);
        }
        writer.WriteSummary(new LabResult(_folder, [Lessons.Complete(experiment, results, seeds)], [("siege-db", "a </script> in a reason must not break the page")], Interrupted: false));

        var view = await Browser.OpenAsync(Path.Combine(_folder, "report.html"), Path.Combine(RepoPaths.Artifacts("screenshots"), "report-lab.png"));

        AssertReadable(view);
        Assert.Equal(
            ["seed-ab-100", "lessons-ab-100", "completion-ab-100", "percentiles-ab-100", "timeline-ab-100-sleep", "pool-ab-100-sleep", "delay-ab-100-sleep", "timeline-ab-100-sleep-min100", "pool-ab-100-sleep-min100", "delay-ab-100-sleep-min100"],
            view.Charts.Select(c => c.Id));
        Assert.Equal(view.Charts.Count(c => !c.Id.StartsWith("seed-", StringComparison.Ordinal) && !c.Id.StartsWith("lessons-", StringComparison.Ordinal)), view.Canvases);
        Assert.True(view.TocEntries >= 4, $"{view.TocEntries} entries in the table of contents");
        Assert.Contains("</script> in a reason", view.Text, StringComparison.Ordinal);
        // Percentile ticks read as percentages from 0%.
        Assert.Contains("0%", view.Charts.Single(c => c.Id == "percentiles-ab-100").Ticks);
    }

    [BrowserFact]
    public async Task LoadReport_OpensOfflineInChromium_WithTheSplitAndEveryChart()
    {
        var result = FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 40, waitedStepMs: 330, timedOut: 3).Load!;
        var html = Path.Combine(_folder, "load.html");
        using (var writer = new StreamWriter(html))
        {
            new HtmlFormat().Write(result, writer);
        }

        var view = await Browser.OpenAsync(html, Path.Combine(RepoPaths.Artifacts("screenshots"), "report-load.png"));

        AssertReadable(view);
        Assert.Equal(["completion-run", "percentiles-run", "timeline-run"], view.Charts.Select(c => c.Id));
        var split = Assert.Single(view.Splits);
        Assert.True(split.Waited > split.Handler, $"waited {split.Waited} ms, handler {split.Handler} ms");
    }

    [BrowserFact]
    public async Task WatchReport_OpensOfflineInChromium_WithThePoolChart()
    {
        var timeline = FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 10, 100).Timeline!;
        var html = Path.Combine(_folder, "watch.html");
        using (var writer = new StreamWriter(html))
        {
            var sink = new HtmlWatchWriter(writer);
            sink.OnCompleted(timeline);
        }

        var view = await Browser.OpenAsync(html, Path.Combine(RepoPaths.Artifacts("screenshots"), "report-watch.png"));

        AssertReadable(view);
        // The pool, and the scheduling delay beside its estimate, one point per sample each.
        Assert.Equal([("pool-watch", timeline.Samples.Count), ("delay-watch", timeline.Samples.Count)], view.Charts.Select(c => (c.Id, c.Points)));
        Assert.Contains("starving", view.Text, StringComparison.Ordinal);
        Assert.Contains("injection: Starvation", view.Legends, StringComparison.Ordinal);
    }

    [Fact]
    public void LoadReport_IsTheSameInEveryCulture()
    {
        var result = FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 20, waitedStepMs: 12.345).Load!;
        string Render(string culture)
        {
            var saved = CultureInfo.CurrentCulture;
            try
            {
                CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo(culture);
                using var writer = new StringWriter(CultureInfo.InvariantCulture);
                new HtmlFormat().Write(result, writer);
                return writer.ToString();
            }
            finally
            {
                CultureInfo.CurrentCulture = saved;
            }
        }

        var invariant = Render("");
        Assert.Equal(invariant, Render("de-DE"));
        Assert.Contains("\"waitedForThreadMs\"", invariant, StringComparison.Ordinal);
    }
}
