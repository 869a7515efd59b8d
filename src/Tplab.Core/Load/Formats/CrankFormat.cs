using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// crank's job statistics protocol (dotnet/crank docs/measurements.md): one JSON object of <c>Metadata</c> and
/// <c>Measurements</c> between <c>#StartJobStatistics</c> and <c>#EndJobStatistics</c> lines on stdout, which a crank
/// agent reads from a job's console. Standard <c>http/*</c> names, so <c>crank --compare</c> lines tplab up with
/// the bombardier, wrk and HttpClient jobs, plus tplab's own (send lag, late sends, p99.9, service time). Each metric
/// says how crank merges several agents (<c>reduce</c>): counts and rates add up; latency percentiles take the worst
/// agent's, which is not a merged percentile: for that, download each agent's <c>.hlog</c> and run <c>tplab load merge</c>.
/// </summary>
public sealed class CrankFormat : ISummaryFormat
{
    /// <summary>The metrics, in order: name, aggregate, reduce, description, format.</summary>
    internal static readonly (string Name, string Aggregate, string Reduce, string Description, string Format)[] Metrics =
    [
        ("http/requests", "max", "sum", "Requests", "n0"),
        ("http/requests/badresponses", "max", "sum", "Bad responses (status 400 and above)", "n0"),
        ("http/requests/errors", "max", "sum", "Transport errors (refused, reset, timeout)", "n0"),
        ("http/rps/mean", "max", "sum", "Requests/sec", "n0"),
        ("http/throughput", "max", "sum", "Read throughput (MB/s)", "n2"),
        ("http/latency/mean", "max", "max", "Mean latency (ms)", "n2"),
        ("http/latency/50", "max", "max", "Latency 50th percentile (ms)", "n2"),
        ("http/latency/75", "max", "max", "Latency 75th percentile (ms)", "n2"),
        ("http/latency/90", "max", "max", "Latency 90th percentile (ms)", "n2"),
        ("http/latency/95", "max", "max", "Latency 95th percentile (ms)", "n2"),
        ("http/latency/99", "max", "max", "Latency 99th percentile (ms)", "n2"),
        ("http/latency/max", "max", "max", "Max latency (ms)", "n2"),
        ("tplab/latency/99.9", "max", "max", "Latency 99.9th percentile (ms)", "n2"),
        ("tplab/servicetime/99", "max", "max", "Service time 99th percentile, from the actual send (ms)", "n2"),
        ("tplab/sendlag/99", "max", "max", "Open loop: send lag 99th percentile (ms)", "n3"),
        ("tplab/latesends", "max", "sum", "Open loop: sends more than 2 ms late", "n0"),
        ("tplab/rps/target", "max", "sum", "Open loop: target rate (req/s)", "n0"),
    ];

    /// <inheritdoc />
    public string Name => "crank";

    /// <inheritdoc />
    public string Description => "crank's job statistics (#StartJobStatistics, http/* names)";

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(writer);
        var values = Values(summary);
        var now = (summary.FinishedAt ?? DateTimeOffset.UnixEpoch).UtcDateTime.ToString("O", System.Globalization.CultureInfo.InvariantCulture);
        var statistics = new CrankStatistics(
            [.. Metrics.Select(m => new CrankMetadata("tplab", m.Name, m.Aggregate, m.Reduce, m.Description, m.Description, m.Format))],
            [.. Metrics.Select(m => new CrankMeasurement(now, m.Name, values[m.Name]))]);
        writer.Write("#StartJobStatistics\n");
        writer.Write(TplabJson.Serialize(statistics, CrankJsonContext.Line.CrankStatistics));
        writer.Write("\n#EndJobStatistics\n");
    }

    private static Dictionary<string, double> Values(LoadSummary s)
    {
        var l = s.LatencyMs;
        var seconds = s.DurationSeconds;
        return new Dictionary<string, double>(StringComparer.Ordinal)
        {
            ["http/requests"] = s.Requests,
            ["http/requests/badresponses"] = s.StatusCodes.Where(c => c.Key >= 400).Sum(c => c.Value),
            ["http/requests/errors"] = s.TransportErrors,
            ["http/rps/mean"] = s.ThroughputPerSecond,
            ["http/throughput"] = seconds > 0 ? s.BytesIn / 1024.0 / 1024.0 / seconds : 0,
            ["http/latency/mean"] = l.Mean,
            ["http/latency/50"] = l.P50,
            ["http/latency/75"] = s.LatencyHistogramMicros.ValueAtPercentile(75) / 1000.0,
            ["http/latency/90"] = l.P90,
            ["http/latency/95"] = l.P95,
            ["http/latency/99"] = l.P99,
            ["http/latency/max"] = l.Max,
            ["tplab/latency/99.9"] = l.P999,
            ["tplab/servicetime/99"] = s.ServiceTimeMs.P99,
            ["tplab/sendlag/99"] = s.SendLagMs.P99,
            ["tplab/latesends"] = s.LateSends ?? 0,
            ["tplab/rps/target"] = s.TargetRate ?? 0,
        };
    }
}

/// <summary>crank's job statistics object: the metrics' definitions, then their values.</summary>
internal sealed record CrankStatistics(IReadOnlyList<CrankMetadata> Metadata, IReadOnlyList<CrankMeasurement> Measurements);

/// <summary>A metric's definition, as crank's <c>MeasurementMetadata</c> names its fields.</summary>
internal sealed record CrankMetadata(string Source, string Name, string Aggregate, string Reduce, string ShortDescription, string LongDescription, string Format);

/// <summary>A metric's value.</summary>
internal sealed record CrankMeasurement(string Timestamp, string Name, double Value);

/// <summary>The source-generated serializer of crank's statistics: PascalCase names, one line.</summary>
[JsonSerializable(typeof(CrankStatistics))]
internal sealed partial class CrankJsonContext : JsonSerializerContext
{
    public static CrankJsonContext Line { get; } = new(TplabJson.Options(indented: false, pascalCase: true, numbers: new Round3()));
}
