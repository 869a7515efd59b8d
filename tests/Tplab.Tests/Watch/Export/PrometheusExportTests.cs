using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Tplab.Launch;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Watch.Export;

/// <summary>
/// <c>tplab watch --prometheus</c> scraped by a real Prometheus (Debian's package, on loopback, 1 s scrapes) while
/// the target starves; the verdict and the scheduling delay are read back through Prometheus' HTTP API.
/// </summary>
[Collection(TestCollections.Watch)]
public sealed class PrometheusExportTests(DownstreamFixture fixture, ITestOutputHelper output) : IClassFixture<DownstreamFixture>
{
    [PrometheusFact]
    public async Task WatchPrometheus_StarvingTarget_VerdictAndDelayReachPrometheusWithTheProcessLabels()
    {
        await using var target = await fixture.Stack.StartTargetAsync(new ThreadPoolSettings());
        var pid = target.ProcessId.ToString(CultureInfo.InvariantCulture);
        var port = Ports.Free();
        await using var prometheus = await PrometheusServer.StartAsync($"127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}", TimeSpan.FromSeconds(1));
        var sampled = 0;
        var watch = TplabCli.RunAsync(TimeSpan.FromSeconds(60), new Dictionary<string, string>(),
            line => { if (line.Contains("\"type\":\"sample\"", StringComparison.Ordinal)) { Interlocked.Increment(ref sampled); } },
            "watch", pid, "--prometheus", $"127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}",
            "--interval", "0.5s", "--duration", "20s", "--format", "jsonl", "--service", "orders");
        // The flood starts once the watch is sampling (calm samples first), not after a fixed 2.5 s a busy machine may not keep.
        await Eventually.UntilAsync(() => Volatile.Read(ref sampled) >= 2, TimeSpan.FromSeconds(30), "the watch's first samples");
        await using (Flood.Start(target.Url("/sleep?ms=1000"), 60, TimeSpan.FromSeconds(15), TimeSpan.FromSeconds(30)))
        {
            await Task.Delay(TimeSpan.FromSeconds(15));
        }
        var (exit, stdout, stderr) = await watch;
        output.WriteLine(stderr);
        output.WriteLine(await prometheus.TargetsAsync());
        var samples = stdout.Split('\n').Where(l => l.Contains("\"type\":\"sample\"", StringComparison.Ordinal)).ToList();
        foreach (var line in samples)
        {
            output.WriteLine(line.Length > 300 ? line[..300] : line);
        }
        // What the watch itself judged, so a failure below is the exporter's, not a load that did not starve the pool.
        Assert.Contains(samples, l => l.Contains("\"verdict\":\"starving\"", StringComparison.Ordinal));

        // Read back after the watch has ended, over the whole run: Prometheus keeps what it scraped. Its last scrape
        // may still be in flight, so ask a few times.
        IReadOnlyList<(IReadOnlyDictionary<string, string> Labels, double Value)> starving = [];
        IReadOnlyList<(IReadOnlyDictionary<string, string> Labels, double Value)> delay = [];
        for (var attempt = 0; attempt < 5 && (starving.Count == 0 || delay.Count == 0); attempt++)
        {
            starving = await prometheus.QueryAsync($"max_over_time(tplab_pool_verdict{{verdict=\"starving\",pid=\"{pid}\"}}[2m]) == 1");
            delay = await prometheus.QueryAsync($"max_over_time(tplab_thread_pool_oldest_waiting_seconds{{pid=\"{pid}\"}}[2m]) > 0.25 and on (pid) max_over_time(tplab_thread_pool_scheduling_delay_seconds_count[2m]) > 0");
            if (starving.Count == 0 || delay.Count == 0)
            {
                await Task.Delay(1000);
            }
        }

        Assert.Equal(0, exit);
        var series = Assert.Single(starving);
        // The process is named by our labels; instance and job are Prometheus's own (the scrape target), never ours.
        Assert.Equal(pid, series.Labels["pid"]);
        Assert.Equal("orders", series.Labels["service"]);
        Assert.Equal("Tplab.Target", series.Labels["process"]);
        Assert.Equal("tplab-watch", series.Labels["job"]);
        Assert.Equal($"127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}", series.Labels["instance"]);
        Assert.DoesNotContain(series.Labels.Keys, k => k.StartsWith("exported_", StringComparison.Ordinal));
        Assert.NotEmpty(delay);
        // The measured waits, as a histogram Prometheus can take quantiles of: a second-long sleep per request on a
        // pool of a few threads makes items wait far longer than 100 ms.
        var p99 = await prometheus.QueryAsync($"histogram_quantile(0.99, sum by (le) (last_over_time(tplab_thread_pool_scheduling_delay_seconds_bucket{{pid=\"{pid}\"}}[2m])))");
        Assert.True(Assert.Single(p99).Value > 0.1, $"p99 of the measured delay {p99[0].Value} s");
        var estimate = await prometheus.QueryAsync($"max_over_time(tplab_thread_pool_scheduling_delay_estimate_seconds{{pid=\"{pid}\"}}[2m])");
        Assert.True(Assert.Single(estimate).Value > 0.1, "the estimate never rose");
    }

    [Fact]
    public async Task WatchPrometheus_OnStarvingDiagnose_PublishesTheCulpritInfoSeries()
    {
        await using var target = await fixture.Stack.StartTargetAsync(new ThreadPoolSettings());
        var pid = target.ProcessId.ToString(CultureInfo.InvariantCulture);
        var port = Ports.Free().ToString(CultureInfo.InvariantCulture);
        var diagnosis = Path.Combine(Path.GetTempPath(), $"tplab-culprit-{Guid.NewGuid():N}.json");
        var watch = TplabCli.RunAsync(TimeSpan.FromSeconds(90), "watch", pid, "--prometheus", "127.0.0.1:" + port, "--interval", "0.25s",
            "--duration", "18s", "--format", "jsonl", "--on-starving", "diagnose=" + diagnosis);
        await Task.Delay(2000);
        string culprit = "";
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        await using (Flood.Start(target.Url("/sleep?ms=1000"), 60, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(30)))
        {
            var clock = Stopwatch.StartNew();
            while (clock.Elapsed < TimeSpan.FromSeconds(20) && culprit.Length == 0)
            {
                await Task.Delay(1000);
                string text;
                try
                {
                    text = await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/metrics"));
                }
                catch (HttpRequestException)
                {
                    continue; // tplab is still starting on a busy machine
                }
                culprit = text.Split('\n').FirstOrDefault(l => l.StartsWith("tplab_culprit_info{", StringComparison.Ordinal)) ?? "";
            }
        }
        var (code, stdout, stderr) = await watch;
        output.WriteLine(stderr);
        string written;
        try
        {
            written = File.Exists(diagnosis) ? await File.ReadAllTextAsync(diagnosis) : "";
        }
        finally
        {
            File.Delete(diagnosis);
        }

        // --on-starving diagnose: the diagnosis written at the onset while the watch goes on to its end.
        Assert.True(code == 0, stderr);
        Assert.Contains("diagnosis written to " + diagnosis, stderr, StringComparison.Ordinal);
        using (var doc = JsonDocument.Parse(written))
        {
            Assert.Equal("blocked", doc.RootElement.GetProperty("verdict").GetString());
            Assert.Equal("Thread.Sleep", doc.RootElement.GetProperty("culprits")[0].GetProperty("blockingCall").GetString());
            // The pool line is read when the capture ends: by then the pool may have grown enough to be draining its queue.
            Assert.Contains(doc.RootElement.GetProperty("pool").GetProperty("verdict").GetString(), new[] { "starving", "recovering" });
        }
        // Samples well past the capture (2.5 s of an 18 s watch at 0.25 s): the watch did not stop at the trigger.
        var samples = stdout.Split('\n').Count(l => l.Contains("\"type\":\"sample\"", StringComparison.Ordinal));
        Assert.True(samples > 30, $"{samples} samples");
        Assert.Contains("call=\"Thread.Sleep\"", culprit, StringComparison.Ordinal);
        Assert.Contains($"pid=\"{pid}\"", culprit, StringComparison.Ordinal);
        Assert.Contains("endpoint=\"GET /sleep\"", culprit, StringComparison.Ordinal);
        Assert.EndsWith(" 1", culprit, StringComparison.Ordinal);
    }
}
