using System.Net;
using System.Net.Sockets;
using Prometheus;
using Tplab.Common;
using Tplab.Watch.Delay;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Export;

/// <summary>
/// <c>--prometheus ADDRESS</c>: a scrape endpoint at <c>/metrics</c> (prometheus-net's registry of its own, served by
/// <see cref="MetricsListener"/>, which takes IPv6 addresses as HttpListener on Linux does not). Series are set on the export thread; a process that exits has its series
/// removed, so a stale "starving" never outlives it.
/// </summary>
public sealed class PrometheusWatchExporter : IWatchExporter
{
    private static readonly string[] ProcessLabels = [.. WatchedProcess.PrometheusLabels];
    private readonly MetricsListener _server;
    private readonly Dictionary<WatchMetric, Gauge> _gauges = [];
    private readonly Dictionary<WatchMetric, Counter> _counters = [];
    private readonly Histogram _delay;
    private readonly Gauge _culprit;
    private readonly Dictionary<int, string[]> _culpritLabels = [];
    private readonly HashSet<(int Pid, string Reason)> _reasons = [];

    private PrometheusWatchExporter(MetricsListener server, CollectorRegistry registry, string where)
    {
        _server = server;
        Where = where;
        var factory = Metrics.WithCustomRegistry(registry);
        foreach (var m in WatchMetrics.All)
        {
            string[] labels = m.Label is { } extra ? [.. ProcessLabels, extra] : ProcessLabels;
            switch (m.Kind)
            {
                case WatchMetricKind.Gauge:
                    _gauges[m] = factory.CreateGauge(m.PrometheusName, m.Description, labels);
                    break;
                case WatchMetricKind.Counter:
                    _counters[m] = factory.CreateCounter(m.PrometheusName, m.Description, labels);
                    break;
            }
        }
        _delay = factory.CreateHistogram(WatchMetrics.Delay.PrometheusName, WatchMetrics.Delay.Description,
            new HistogramConfiguration { LabelNames = ProcessLabels, Buckets = [.. WatchMetrics.DelayBucketsSeconds] });
        _culprit = factory.CreateGauge(WatchMetrics.CulpritInfo,
            "The code a diagnosis found holding the pool (--on-starving diagnose): 1, with the endpoint, method and blocking call as labels",
            [.. ProcessLabels, "endpoint", "method", "call"]);
    }

    /// <inheritdoc />
    public string Where { get; }

    /// <summary>
    /// Opens the endpoint at <paramref name="address"/> (<see cref="ListenAddress"/>); an address in use or not
    /// allowed is a <see cref="TplabException"/> with exit code 8, in one line.
    /// </summary>
    public static PrometheusWatchExporter Start(ListenAddress address)
    {
        ArgumentNullException.ThrowIfNull(address);
        var registry = Metrics.NewCustomRegistry();
        MetricsListener server;
        try
        {
            server = MetricsListener.Start(address, registry);
        }
        catch (SocketException e)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"--prometheus {address}: cannot listen there: {InUse(e)}", e);
        }
        return new PrometheusWatchExporter(server, registry, $"http://{address}/metrics");
    }

    /// <inheritdoc />
    public void Apply(ExportUpdate update)
    {
        ArgumentNullException.ThrowIfNull(update);
        var labels = update.Process.PrometheusValues.ToArray();
        switch (update)
        {
            case ProcessSampled sampled:
                Sampled(update.Process.ProcessId, labels, sampled.Sample, sampled.InjectionsByReason);
                break;
            case CulpritFound found:
                if (_culpritLabels.Remove(update.Process.ProcessId, out var old))
                {
                    _culprit.RemoveLabelled(old);
                }
                string[] culprit = [.. labels, found.Culprit.Endpoint, found.Culprit.Method, found.Culprit.Call];
                _culprit.WithLabels(culprit).Set(1);
                _culpritLabels[update.Process.ProcessId] = culprit;
                break;
            case ProcessGone:
                Remove(update.Process.ProcessId, labels);
                break;
        }
    }

    public void Dispose() => _server.Dispose();

    private void Sampled(int pid, string[] labels, ThreadPoolSample s, IReadOnlyDictionary<string, long> injections)
    {
        _gauges[WatchMetrics.Threads].WithLabels(labels).Set(s.ThreadCount);
        _gauges[WatchMetrics.Queue].WithLabels(labels).Set(s.QueueLength);
        _gauges[WatchMetrics.LockWaiters].WithLabels(labels).Set(s.LockWaiters ?? 0);
        _gauges[WatchMetrics.Cpu].WithLabels(labels).Set(s.CpuPercent / 100);
        _gauges[WatchMetrics.OsThreads].WithLabels(labels).Set(s.OsThreads);
        _gauges[WatchMetrics.Estimate].WithLabels(labels).Set(s.EstimatedDelayMs is { } e ? e / 1000 : double.PositiveInfinity);
        _counters[WatchMetrics.Completed].WithLabels(labels).IncTo(s.CompletedTotal);
        _counters[WatchMetrics.Contentions].WithLabels(labels).IncTo(s.ContentionsTotal);
        foreach (var (reason, count) in injections)
        {
            _counters[WatchMetrics.Injections].WithLabels([.. labels, reason]).IncTo(count);
            _reasons.Add((pid, reason));
        }
        foreach (var verdict in VerdictWords.All)
        {
            _gauges[WatchMetrics.Verdict].WithLabels([.. labels, verdict.ToWord()]).Set(verdict == s.Verdict ? 1 : 0);
        }
        if (s.Delay is { } delay)
        {
            _gauges[WatchMetrics.OldestWaiting].WithLabels(labels).Set(delay.OldestWaitingMs / 1000);
            _counters[WatchMetrics.Unpaired].WithLabels(labels).Inc(delay.Unpaired);
            ObserveDelays(labels, delay.Distribution);
        }
    }

    // Each bucket of the interval's waits is observed as its mean, that many times: counts and sum stay exact, and each
    // mean lies inside its fine bucket, so it lands in the right coarse one (within the fine bucket's 10%).
    private void ObserveDelays(string[] labels, DelayDistribution waits)
    {
        var child = _delay.WithLabels(labels);
        for (var i = 0; i < waits.Counts.Count; i++)
        {
            if (waits.Counts[i] > 0)
            {
                child.Observe(waits.SumsMs[i] / waits.Counts[i] / 1000, waits.Counts[i]);
            }
        }
    }

    private void Remove(int pid, string[] labels)
    {
        foreach (var gauge in _gauges.Where(g => g.Key.Label is null).Select(g => g.Value))
        {
            gauge.RemoveLabelled(labels);
        }
        foreach (var counter in _counters.Where(c => c.Key.Label is null).Select(c => c.Value))
        {
            counter.RemoveLabelled(labels);
        }
        foreach (var verdict in VerdictWords.All)
        {
            _gauges[WatchMetrics.Verdict].RemoveLabelled([.. labels, verdict.ToWord()]);
        }
        foreach (var (_, reason) in _reasons.Where(r => r.Pid == pid).ToList())
        {
            _counters[WatchMetrics.Injections].RemoveLabelled([.. labels, reason]);
            _reasons.Remove((pid, reason));
        }
        _delay.RemoveLabelled(labels);
        if (_culpritLabels.Remove(pid, out var culprit))
        {
            _culprit.RemoveLabelled(culprit);
        }
    }

    private static string InUse(Exception e) => e switch
    {
        HttpListenerException { ErrorCode: 98 or 10048 } or SocketException { SocketErrorCode: SocketError.AddressAlreadyInUse } => "the address is already in use",
        { InnerException: SocketException { SocketErrorCode: SocketError.AddressAlreadyInUse } } => "the address is already in use",
        _ => e.Message,
    };
}
