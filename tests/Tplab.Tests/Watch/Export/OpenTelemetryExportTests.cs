using OpenTelemetry.Logs;
using OpenTelemetry.Metrics;
using Tplab.Watch;
using Tplab.Watch.Delay;
using Tplab.Watch.Export;
using Tplab.Watch.Running;
using Tplab.Watch.Verdicts;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Export;

/// <summary>What the OTLP exporter hands the OpenTelemetry SDK, read back with the SDK's in-memory exporters.</summary>
[ParallelSafe]
public sealed class OpenTelemetryExportTests : IDisposable
{
    private static readonly WatchedProcess Orders = new(4242, "Orders.Api", new Version(10, 0, 1), "node-a");
    private readonly List<MetricSnapshot> _metrics = [];
    private readonly List<LogRecord> _logs = [];
    private readonly OpenTelemetryWatchExporter _exporter;

    public OpenTelemetryExportTests() =>
        _exporter = new OpenTelemetryWatchExporter("memory", m => m.AddInMemoryExporter(_metrics), l => l.AddInMemoryExporter(_logs));

    [Fact]
    public void Apply_StarvingSample_ExportsSemanticConventionNamesWithTheProcessAttributes()
    {
        _exporter.Apply(new ProcessSampled(Orders, Sample(PoolVerdict.Starving), new Dictionary<string, long> { ["Starvation"] = 3 }));
        _exporter.Flush();

        Assert.Equal(7, Gauge("dotnet.thread_pool.thread.count"));
        Assert.Equal(120, Gauge("dotnet.thread_pool.queue.length"));
        Assert.Equal(5000, Sum("dotnet.thread_pool.work_item.count"));
        Assert.Equal(3, Sum("tplab.thread_pool.injections", ("reason", "Starvation")));
        Assert.Equal(1, Gauge("tplab.pool.verdict", ("verdict", "starving")));
        Assert.Equal(0, Gauge("tplab.pool.verdict", ("verdict", "healthy")));
        // 120 queued at 40 completions/s: 3 s estimated.
        Assert.Equal(3, Gauge("tplab.thread_pool.scheduling_delay.estimate"), 3);
        var point = Points("dotnet.thread_pool.queue.length").Single();
        var tags = Tags(point);
        Assert.Equal(4242, Convert.ToInt32(tags["process.pid"], System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal("Orders.Api", tags["process.executable.name"]);
        Assert.Equal("10.0.1", tags["process.runtime.version"]);
        Assert.Equal("node-a", tags["service.name"]);
    }

    [Fact]
    public void Apply_MeasuredDelay_HistogramKeepsCountAndSum()
    {
        _exporter.Apply(new ProcessSampled(Orders, Sample(PoolVerdict.Starving), new Dictionary<string, long>()));
        _exporter.Flush();

        var point = Points("tplab.thread_pool.scheduling_delay").Single();
        Assert.Equal(3, point.GetHistogramCount());
        // 2 ms + 4 ms + 1500 ms, in seconds.
        Assert.Equal(1.506, point.GetHistogramSum(), 6);
        var buckets = new List<(double Bound, long Count)>();
        foreach (var b in point.GetHistogramBuckets())
        {
            buckets.Add((b.ExplicitBound, b.BucketCount));
        }
        // OpenTelemetry's buckets are not cumulative: each wait lands in the one bucket whose bounds hold it.
        Assert.Equal(1, buckets.Single(b => b.Bound == 0.0025).Count);
        Assert.Equal(1, buckets.Single(b => b.Bound == 0.005).Count);
        Assert.Equal(1, buckets.Single(b => b.Bound == 2.5).Count);
    }

    [Fact]
    public void Apply_Culprit_IsALogRecordWithTheCodesNames()
    {
        _exporter.Apply(new CulpritFound(Orders, new StarvingCulprit(4242, "GET /orders/{id}", "OrderService.Load", "Task.Result", 6.5, "d.json")));
        _exporter.Dispose();

        var record = Assert.Single(_logs);
        var attributes = record.Attributes!.ToDictionary(kv => kv.Key, kv => kv.Value);
        Assert.Equal("Task.Result", attributes["call"]);
        Assert.Equal("OrderService.Load", attributes["method"]);
        Assert.Equal("GET /orders/{id}", attributes["endpoint"]);
        Assert.Equal(4242, attributes["pid"]);
        Assert.Equal("StarvingCulprit", record.EventId.Name);
    }

    [Fact]
    public void Apply_ProcessGone_ItsGaugesAreNoLongerReported()
    {
        _exporter.Apply(new ProcessSampled(Orders, Sample(PoolVerdict.Healthy), new Dictionary<string, long>()));
        _exporter.Flush();
        _metrics.Clear();

        _exporter.Apply(new ProcessGone(Orders));
        _exporter.Flush();

        // A process that exited must not leave its last verdict behind in the collector.
        Assert.Empty(Points("dotnet.thread_pool.queue.length"));
        Assert.Empty(Points("tplab.pool.verdict"));
    }

    public void Dispose() => _exporter.Dispose();

    private static ThreadPoolSample Sample(PoolVerdict verdict)
    {
        var waits = new DelayHistogram();
        waits.Add(2);
        waits.Add(4);
        waits.Add(1500);
        var delay = SchedulingDelay.From(new PairingInterval(waits.Snapshot(), 0, 12, 2100), 1);
        return new ThreadPoolSample(TimeSpan.FromSeconds(3), 7, 120, 40, 30, 5, 0, 10, verdict, "test")
        {
            ProcessId = 4242,
            Delay = delay,
            CompletedTotal = 5000,
        };
    }

    private List<MetricPoint> Points(string name)
    {
        var points = new List<MetricPoint>();
        foreach (var metric in _metrics.Where(m => m.Name == name))
        {
            points.AddRange(metric.MetricPoints);
        }
        return points;
    }

    private static Dictionary<string, object?> Tags(MetricPoint point)
    {
        var tags = new Dictionary<string, object?>();
        foreach (var tag in point.Tags)
        {
            tags[tag.Key] = tag.Value;
        }
        return tags;
    }

    private double Gauge(string name, (string Key, string Value)? extra = null) =>
        Points(name).Where(p => extra is not { } e || Equals(Tags(p).GetValueOrDefault(e.Key), e.Value)).Select(p => p.GetGaugeLastValueDouble()).Last();

    private double Sum(string name, (string Key, string Value)? extra = null) =>
        Points(name).Where(p => extra is not { } e || Equals(Tags(p).GetValueOrDefault(e.Key), e.Value)).Select(p => p.GetSumDouble()).Last();
}
