using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging;
using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Logs;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using Tplab.Watch.Delay;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Export;

/// <summary>
/// <c>--otlp URL</c>: the watch's metrics through the OpenTelemetry SDK (a meter whose observable instruments read
/// the newest sample of each process, and a histogram of the measured delays), and each culprit a diagnosis finds as
/// a log record. The SDK's reader and exporters run on their own threads; a collector that refuses or vanishes is
/// reported once (and its return), never waited for by the watch.
/// </summary>
public sealed partial class OpenTelemetryWatchExporter : IWatchExporter
{
    /// <summary>The meter's name (for <c>AddMeter</c> in tests and collectors' filters).</summary>
    public const string MeterName = "Tplab.Watch";

    private readonly Meter _meter = new(MeterName, typeof(OpenTelemetryWatchExporter).Assembly.GetName().Version?.ToString(3));
    private readonly Lock _gate = new();
    private readonly Dictionary<int, (WatchedProcess Process, ThreadPoolSample Sample, IReadOnlyDictionary<string, long> Injections, double Unpaired)> _latest = [];
    private readonly Histogram<double> _delay;
    private readonly MeterProvider _metrics;
    private readonly ILoggerFactory _logs;
    private readonly ILogger _culprits;

    /// <summary>
    /// Builds the meter and its SDK pipeline; <paramref name="metrics"/> adds the readers (the OTLP exporter, or an
    /// in-memory one in tests) and <paramref name="logs"/> the log exporters.
    /// </summary>
    public OpenTelemetryWatchExporter(string where, Action<MeterProviderBuilder> metrics, Action<OpenTelemetryLoggerOptions> logs)
    {
        ArgumentNullException.ThrowIfNull(metrics);
        ArgumentNullException.ThrowIfNull(logs);
        Where = where;
        Gauge(WatchMetrics.Threads, s => s.ThreadCount);
        Gauge(WatchMetrics.Queue, s => s.QueueLength);
        Gauge(WatchMetrics.LockWaiters, s => s.LockWaiters ?? 0);
        Gauge(WatchMetrics.Cpu, s => s.CpuPercent / 100);
        Gauge(WatchMetrics.OsThreads, s => s.OsThreads);
        Gauge(WatchMetrics.Estimate, s => s.EstimatedDelayMs is { } e ? e / 1000 : double.PositiveInfinity);
        Gauge(WatchMetrics.OldestWaiting, s => s.Delay is { } d ? d.OldestWaitingMs / 1000 : null);
        _meter.CreateObservableCounter(WatchMetrics.Completed.Name, () => Each(p => [Measure(p.Sample.CompletedTotal, p.Process)]), WatchMetrics.Completed.Unit, WatchMetrics.Completed.Description);
        _meter.CreateObservableCounter(WatchMetrics.Contentions.Name, () => Each(p => [Measure(p.Sample.ContentionsTotal, p.Process)]), WatchMetrics.Contentions.Unit, WatchMetrics.Contentions.Description);
        _meter.CreateObservableCounter(WatchMetrics.Unpaired.Name, () => Each(p => [Measure(p.Unpaired, p.Process)]), WatchMetrics.Unpaired.Unit, WatchMetrics.Unpaired.Description);
        _meter.CreateObservableCounter(WatchMetrics.Injections.Name,
            () => Each(p => p.Injections.Select(kv => Measure(kv.Value, p.Process, new("reason", kv.Key)))), WatchMetrics.Injections.Unit, WatchMetrics.Injections.Description);
        _meter.CreateObservableGauge(WatchMetrics.Verdict.Name,
            () => Each(p => VerdictWords.All.Select(v => Measure(v == p.Sample.Verdict ? 1 : 0, p.Process, new("verdict", v.ToWord())))), WatchMetrics.Verdict.Unit, WatchMetrics.Verdict.Description);
        _delay = _meter.CreateHistogram(WatchMetrics.Delay.Name, WatchMetrics.Delay.Unit, WatchMetrics.Delay.Description, tags: null,
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = WatchMetrics.DelayBucketsSeconds });
        var resource = ResourceBuilder.CreateDefault().AddService("tplab-watch", serviceVersion: _meter.Version);
        var builder = Sdk.CreateMeterProviderBuilder().SetResourceBuilder(resource).AddMeter(MeterName);
        metrics(builder);
        _metrics = builder.Build();
        _logs = LoggerFactory.Create(b => b.AddOpenTelemetry(o =>
        {
            o.SetResourceBuilder(resource);
            o.IncludeFormattedMessage = true;
            logs(o);
        }));
        _culprits = _logs.CreateLogger("Tplab.Watch.Culprits");
    }

    /// <inheritdoc />
    public string Where { get; }

    /// <summary>The exporter for <c>--otlp URL</c>: metrics every <paramref name="interval"/>, culprits as they come, over <paramref name="protocol"/>.</summary>
    public static OpenTelemetryWatchExporter Otlp(Uri endpoint, OtlpExportProtocol protocol, TimeSpan interval, TextWriter notices)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        OtlpExporterOptions Options(string signal) => new()
        {
            Protocol = protocol,
            // Over HTTP each signal has its own path; a bare collector URL gets the standard ones.
            Endpoint = protocol == OtlpExportProtocol.HttpProtobuf && endpoint.AbsolutePath is "/" or "" ? new Uri(endpoint, $"/v1/{signal}") : endpoint,
        };
        var where = endpoint.ToString();
        return new OpenTelemetryWatchExporter(where,
            m => m.AddReader(new PeriodicExportingMetricReader(new ReportingExporter(new OtlpMetricExporter(Options("metrics")), where, notices), (int)interval.TotalMilliseconds)
            {
                TemporalityPreference = MetricReaderTemporalityPreference.Cumulative,
            }),
            l => l.AddProcessor(new BatchLogRecordExportProcessor(new OtlpLogExporter(Options("logs")))));
    }

    /// <summary>Exports what is pending now (tests, and the watch's end).</summary>
    public void Flush()
    {
        _metrics.ForceFlush(5000);
    }

    /// <inheritdoc />
    public void Apply(ExportUpdate update)
    {
        ArgumentNullException.ThrowIfNull(update);
        var pid = update.Process.ProcessId;
        switch (update)
        {
            case ProcessSampled sampled:
                lock (_gate)
                {
                    var unpaired = (_latest.TryGetValue(pid, out var before) ? before.Unpaired : 0) + (sampled.Sample.Delay?.Unpaired ?? 0);
                    _latest[pid] = (update.Process, sampled.Sample, sampled.InjectionsByReason, unpaired);
                }
                if (sampled.Sample.Delay is { } delay)
                {
                    Record(update.Process, delay.Distribution);
                }
                break;
            case CulpritFound found:
                var c = found.Culprit;
                LogCulprit(_culprits, pid, update.Process.Name, update.Process.Service, c.Call, c.Method, c.Endpoint, c.Threads, c.File);
                break;
            case ProcessGone:
                lock (_gate)
                {
                    _latest.Remove(pid);
                }
                break;
        }
    }

    public void Dispose()
    {
        _metrics.ForceFlush(5000);
        _metrics.Dispose();
        _logs.Dispose();
        _meter.Dispose();
    }

    [LoggerMessage(EventId = 1, EventName = "StarvingCulprit", Level = LogLevel.Warning,
        Message = "Thread pool of {process} (pid {pid}, service {service}) held by {call} in {method} on {endpoint}: {threads} threads; diagnosis in {file}")]
    private static partial void LogCulprit(ILogger logger, int pid, string process, string service, string call, string method, string endpoint, double threads, string file);

    private void Gauge(WatchMetric metric, Func<ThreadPoolSample, double?> value) =>
        _meter.CreateObservableGauge(metric.Name,
            () => Each(p => value(p.Sample) is { } v ? [Measure(v, p.Process)] : []), metric.Unit, metric.Description);

    private IEnumerable<Measurement<double>> Each(Func<(WatchedProcess Process, ThreadPoolSample Sample, IReadOnlyDictionary<string, long> Injections, double Unpaired), IEnumerable<Measurement<double>>> measure)
    {
        lock (_gate)
        {
            return _latest.Values.SelectMany(measure).ToList();
        }
    }

    private static Measurement<double> Measure(double value, WatchedProcess process, KeyValuePair<string, object?>? extra = null) =>
        new(value, extra is { } e ? [.. process.Attributes, e] : process.Attributes);

    // As for Prometheus: each fine bucket's waits recorded at their mean, so counts and sum stay exact.
    private void Record(WatchedProcess process, DelayDistribution waits)
    {
        var tags = process.Attributes.ToArray();
        for (var i = 0; i < waits.Counts.Count; i++)
        {
            var mean = waits.Counts[i] == 0 ? 0 : waits.SumsMs[i] / waits.Counts[i] / 1000;
            for (var n = 0; n < waits.Counts[i]; n++)
            {
                _delay.Record(mean, tags);
            }
        }
    }

    /// <summary>Passes batches to the OTLP exporter and says, once each, when exports start failing and when they work again.</summary>
    private sealed class ReportingExporter(BaseExporter<Metric> inner, string where, TextWriter notices) : BaseExporter<Metric>
    {
        private bool _failing;

        public override ExportResult Export(in Batch<Metric> batch)
        {
            var result = inner.Export(batch);
            var failing = result != ExportResult.Success;
            if (failing != _failing)
            {
                _failing = failing;
                lock (notices)
                {
                    notices.WriteLine(failing
                        ? $"tplab watch: the OTLP export to {where} failed (the collector refused, timed out or is gone); the watch goes on and retries every interval"
                        : $"tplab watch: the OTLP export to {where} works again");
                    notices.Flush();
                }
            }
            return result;
        }

        protected override bool OnShutdown(int timeoutMilliseconds) => inner.Shutdown(timeoutMilliseconds);

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }
            base.Dispose(disposing);
        }
    }
}
