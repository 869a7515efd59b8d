using System.Text.Json.Nodes;
using Tplab.Reports.Html;
using Tplab.Tests.Support;

namespace Tplab.Tests.Reports;

/// <summary>The report page itself, opened in a real headless Chromium. (The lab's end-to-end test checks a real run's report.)</summary>
public sealed class HtmlReportTests
{
    // A hand-made two-scenario summary: enough to exercise every table and chart kind.
    private static (JsonObject Summary, JsonObject Series) Sample()
    {
        var summary = JsonNode.Parse("""
        {
          "schemaVersion": 1, "tool": "tplab test", "profile": "quick", "runtimeVersion": ".NET 10", "cores": 2, "os": "Linux",
          "startedAt": "2026-01-01T00:00:00Z", "interrupted": false, "skipped": [],
          "experiments": [{ "name": "demo", "title": "a </script> in a title must not break the page", "seeds": ["004"], "scaling": "tiny",
            "runtimeNotes": ["note"], "observations": [], "lessons": [{ "label": "sleep vs delay", "numerator": "sleep", "denominator": "delay", "ours": 5.5, "seed": 57 }] }],
          "scenarios": [
            { "experiment": "demo", "scenario": "sleep", "label": "sleep", "status": "completed", "verdict": "starving",
              "load": { "requests": 3, "failed": 0, "throughputPerSecond": 2.5, "latencyMs": { "mean": 1500, "p50": 1400, "p99": 2100, "max": 2100 } },
              "timeline": { "threadsStart": 2, "threadsPeak": 9, "injectionsByReason": { "Starvation": 4 } },
              "culprits": [{ "blockingCall": "Thread.Sleep", "userFrame": "WaitController.Sleep", "threads": 7, "share": 0.9, "advice": "await Task.Delay" }],
              "seed": { "figures": { "maxMs": 57000 } } },
            { "experiment": "demo", "scenario": "delay", "label": "delay", "status": "completed", "verdict": "healthy",
              "load": { "requests": 3, "failed": 0, "throughputPerSecond": 3, "latencyMs": { "mean": 1001, "p50": 1001, "p99": 1003, "max": 1003 } },
              "timeline": { "threadsStart": 2, "threadsPeak": 3, "injectionsByReason": {} }, "culprits": [], "seed": null }
          ]
        }
        """)!.AsObject();
        var series = JsonNode.Parse("""
        {
          "demo/sleep": { "latency": { "t": [0, 0.1, 0.2], "ms": [1000, 1400, 2100] }, "pool": { "t": [0, 1, 2], "threads": [2, 5, 9], "queue": [0, 12, 3] },
                          "injections": { "t": [0.5, 1.5], "threads": [4, 7], "reason": ["Starvation", "Starvation"] }, "percentiles": { "p": [0, 0.5, 0.9, 0.99, 1], "ms": [1000, 1400, 2000, 2100, 2100] } },
          "demo/delay": { "latency": { "t": [0, 0.1, 0.2], "ms": [1001, 1001, 1003] }, "pool": { "t": [0, 1, 2], "threads": [2, 3, 3], "queue": [0, 0, 0] },
                          "injections": { "t": [], "threads": [], "reason": [] }, "percentiles": { "p": [0, 0.5, 1], "ms": [1001, 1001, 1003] } }
        }
        """)!.AsObject();
        return (summary, series);
    }

    [Fact]
    public async Task Write_OpensOfflineInChromium_WithEveryChartDrawnAndNoErrors()
    {
        var (summary, series) = Sample();
        var folder = Directory.CreateTempSubdirectory("tplab-report-test-").FullName;
        var html = Path.Combine(folder, "report.html");
        using (var writer = new StreamWriter(html))
        {
            HtmlReport.Write(writer, summary, series);
        }

        var view = await Browser.OpenAsync(html, Path.Combine(RepoPaths.Artifacts("screenshots"), "report-sample.png"));

        Assert.True(view.Rendered, "report.js did not finish");
        Assert.Empty(view.ConsoleErrors);
        Assert.Empty(view.ExternalRequests);
        // latency over time, percentiles, and one pool chart per scenario
        Assert.Equal(["latency-demo", "percentiles-demo", "pool-demo-sleep", "pool-demo-delay"], view.Charts.Select(c => c.Id));
        Assert.All(view.Charts, c => Assert.True(c.Points > 0, $"{c.Id} has no points"));
        Assert.Equal(view.Charts.Count, view.Canvases);
        Assert.Contains("WaitController.Sleep", view.Text, StringComparison.Ordinal);
        Assert.Contains("</script> in a title", view.Text, StringComparison.Ordinal);
        Directory.Delete(folder, recursive: true);
    }
}
