using System.Globalization;
using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Load.Histograms;

namespace Tplab.Load.Formats;

/// <summary><c>tplab load merge --format json</c>: the latency of several interval logs added into one (docs/schemas/load-merge.schema.json).</summary>
public sealed record MergedJson
{
    public int Files { get; init; }

    public int Intervals { get; init; }

    /// <summary>The first interval's start, UTC to the millisecond; null when the logs gave none.</summary>
    public string? Start { get; init; }

    public double DurationSeconds { get; init; }

    public long Requests { get; init; }

    public double ThroughputPerSecond { get; init; }

    public MergedLatencyJson LatencyMs { get; init; } = new();

    /// <summary>The JSON of <paramref name="merged"/>, over <paramref name="seconds"/> from the first interval's start to the last one's end.</summary>
    public static MergedJson From(HistogramLog.Merged merged, double seconds)
    {
        ArgumentNullException.ThrowIfNull(merged);
        var h = merged.Histogram;
        double At(double p) => h.ValueAtPercentile(p) / 1000.0;
        return new()
        {
            Files = merged.Files, Intervals = merged.Intervals,
            Start = merged.Start?.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture),
            DurationSeconds = seconds, Requests = h.TotalCount, ThroughputPerSecond = seconds > 0 ? h.TotalCount / seconds : 0,
            LatencyMs = new() { Mean = h.Mean / 1000, P50 = At(50), P90 = At(90), P95 = At(95), P99 = At(99), P999 = At(99.9), P9999 = At(99.99), Max = h.MaxValue / 1000.0 },
        };
    }
}

/// <summary>The merged latency in milliseconds: mean, percentiles to p99.99, max.</summary>
public sealed record MergedLatencyJson
{
    public double Mean { get; init; }

    public double P50 { get; init; }

    public double P90 { get; init; }

    public double P95 { get; init; }

    public double P99 { get; init; }

    public double P999 { get; init; }

    public double P9999 { get; init; }

    public double Max { get; init; }
}
