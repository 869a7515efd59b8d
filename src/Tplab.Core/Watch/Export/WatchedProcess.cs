using System.Globalization;

namespace Tplab.Watch.Export;

/// <summary>
/// The process behind a series: pid, name, runtime version and the service it belongs to, exported as labels on
/// every series (metric attributes, not only resource attributes, which end up in <c>target_info</c>), never as
/// <c>instance</c> or <c>job</c>, which Prometheus sets itself.
/// </summary>
/// <param name="Service">The service label (<c>--service</c>, default the host name).</param>
public sealed record WatchedProcess(int ProcessId, string Name, Version? RuntimeVersion, string Service)
{
    /// <summary>The Prometheus label names, in the order of <see cref="PrometheusValues"/>.</summary>
    public static IReadOnlyList<string> PrometheusLabels { get; } = ["pid", "process", "runtime_version", "service"];

    /// <summary>The label values for Prometheus.</summary>
    public IReadOnlyList<string> PrometheusValues => [ProcessId.ToString(CultureInfo.InvariantCulture), Name, Version, Service];

    /// <summary>The attributes for OpenTelemetry (semantic-convention keys).</summary>
    public IReadOnlyList<KeyValuePair<string, object?>> Attributes =>
    [
        new("process.pid", ProcessId),
        new("process.executable.name", Name),
        new("process.runtime.version", Version),
        new("service.name", Service),
    ];

    private string Version => RuntimeVersion?.ToString() ?? "unknown";
}

/// <summary>What the exporters are told, in order, on their own thread.</summary>
public abstract record ExportUpdate(WatchedProcess Process);

/// <summary>A new sample of <see cref="ExportUpdate.Process"/>, with its injections so far by reason.</summary>
public sealed record ProcessSampled(WatchedProcess Process, ThreadPoolSample Sample, IReadOnlyDictionary<string, long> InjectionsByReason) : ExportUpdate(Process);

/// <summary>The process exited or is no longer watched: its series are removed.</summary>
public sealed record ProcessGone(WatchedProcess Process) : ExportUpdate(Process);

/// <summary>A diagnosis named the code holding the pool.</summary>
public sealed record CulpritFound(WatchedProcess Process, StarvingCulprit Culprit) : ExportUpdate(Process);

/// <summary>An exporter: applies updates on the export thread, never on the sampling thread.</summary>
public interface IWatchExporter : IDisposable
{
    /// <summary>Where it exports, for messages (<c>http://127.0.0.1:9464/metrics</c>).</summary>
    string Where { get; }

    /// <summary>Takes one update; must not block for long (network I/O belongs on the exporter's own threads).</summary>
    void Apply(ExportUpdate update);
}
