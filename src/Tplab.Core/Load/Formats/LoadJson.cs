using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// The <c>load</c> JSON object (<c>--format json</c>; docs/schemas/load.schema.json), the same object the lab embeds
/// in each scenario of summary.json. Times in milliseconds, durations in seconds, rates per second. The writer and
/// every reader (compare reads it inside summary.json) go through this record.
/// </summary>
public sealed record LoadJson
{
    /// <summary>The version written; bumped when a field changes meaning or goes away (docs/schemas/README.md).</summary>
    public const int CurrentSchema = 1;

    [JsonRequired]
    public int SchemaVersion { get; init; } = CurrentSchema;

    public string Url { get; init; } = "";

    /// <summary>closed or open.</summary>
    public string Model { get; init; } = "closed";

    /// <summary>sockets or httpclient.</summary>
    public string Engine { get; init; } = "";

    public int Concurrency { get; init; }

    public bool KeepAlive { get; init; }

    public bool Interrupted { get; init; }

    [JsonRequired]
    public long Requests { get; init; }

    public long Succeeded { get; init; }

    public long Failed { get; init; }

    public double DurationSeconds { get; init; }

    public double ThroughputPerSecond { get; init; }

    [JsonRequired]
    public LatencyJson LatencyMs { get; init; } = new();

    /// <summary>Where the time went, when the app sent the Server-Timing handler stamp; absent otherwise.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public HandlerTimingJson? HandlerTiming { get; init; }

    /// <summary>Responses by status code (0: no response).</summary>
    public IReadOnlyDictionary<int, long> StatusCodes { get; init; } = new Dictionary<int, long>();

    public IReadOnlyList<ErrorJson> Errors { get; init; } = [];

    public long BytesIn { get; init; }

    public long BytesOut { get; init; }

    /// <summary>Open loop only: the rate asked for.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? TargetRate { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? AchievedRate { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public long? LateSends { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public long? Unsent { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? LateThresholdMs { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public LatencyJson? SendLagMs { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public LatencyJson? ServiceTimeMs { get; init; }

    /// <summary>Each --threshold's outcome; absent without thresholds.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<ThresholdJson>? Thresholds { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? AbortedBy { get; init; }

    public IReadOnlyList<TargetJson> Targets { get; init; } = [];

    /// <summary>The JSON of <paramref name="s"/>.</summary>
    public static LoadJson From(LoadSummary s)
    {
        ArgumentNullException.ThrowIfNull(s);
        var open = s.Model == "open";
        return new()
        {
            Url = s.Url.ToString(), Model = s.Model, Engine = s.Engine, Concurrency = s.Concurrency, KeepAlive = s.KeepAlive,
            Interrupted = s.Interrupted, Requests = s.Requests, Succeeded = s.Succeeded, Failed = s.Failed,
            DurationSeconds = s.DurationSeconds, ThroughputPerSecond = s.ThroughputPerSecond, LatencyMs = LatencyJson.From(s.LatencyMs),
            HandlerTiming = HandlerTimingJson.From(s.HandlerTiming), StatusCodes = s.StatusCodes,
            Errors = [.. s.Errors.Select(e => new ErrorJson(e.Message, e.Count))], BytesIn = s.BytesIn, BytesOut = s.BytesOut,
            TargetRate = open ? s.TargetRate ?? 0 : null, AchievedRate = open ? s.AchievedRate ?? 0 : null,
            LateSends = open ? s.LateSends ?? 0 : null, Unsent = open ? s.Unsent ?? 0 : null,
            LateThresholdMs = open ? s.LateThresholdMs ?? 0 : null,
            SendLagMs = open ? LatencyJson.From(s.SendLagMs) : null, ServiceTimeMs = open ? LatencyJson.From(s.ServiceTimeMs) : null,
            Thresholds = s.Thresholds.Count == 0 ? null : [.. s.Thresholds.Select(t => new ThresholdJson(t.Threshold, t.Metric, t.Actual, t.Passed))],
            AbortedBy = s.Thresholds.Count == 0 ? null : s.AbortedBy,
            Targets = [.. s.Targets.Select(TargetJson.From)],
        };
    }
}

/// <summary>One latency distribution in milliseconds (<see cref="LatencyStats"/>).</summary>
public sealed record LatencyJson
{
    public long Count { get; init; }

    public double Min { get; init; }

    public double Mean { get; init; }

    public double StdDev { get; init; }

    public double P50 { get; init; }

    public double P90 { get; init; }

    public double P95 { get; init; }

    public double P99 { get; init; }

    public double P999 { get; init; }

    public double Max { get; init; }

    /// <summary>The JSON of <paramref name="s"/>.</summary>
    public static LatencyJson From(LatencyStats s)
    {
        ArgumentNullException.ThrowIfNull(s);
        return new() { Count = s.Count, Min = s.Min, Mean = s.Mean, StdDev = s.StdDev, P50 = s.P50, P90 = s.P90, P95 = s.P95, P99 = s.P99, P999 = s.P999, Max = s.Max };
    }
}

/// <summary>Where the requests' time went (<see cref="Summary.HandlerTiming"/>).</summary>
public sealed record HandlerTimingJson(long Requests, LatencyJson LatencyMs, LatencyJson WaitedForThreadMs, LatencyJson HandlerMs, LatencyJson RestMs)
{
    /// <summary>The JSON of <paramref name="t"/>; null for null.</summary>
    public static HandlerTimingJson? From(HandlerTiming? t) => t is null ? null
        : new(t.Requests, LatencyJson.From(t.LatencyMs), LatencyJson.From(t.WaitedForThreadMs), LatencyJson.From(t.HandlerMs), LatencyJson.From(t.RestMs));
}

/// <summary>A transport error message and how many requests ended with it.</summary>
public sealed record ErrorJson(string Message, long Count);

/// <summary>A threshold's outcome.</summary>
public sealed record ThresholdJson(string Threshold, string Metric, double Actual, bool Passed);

/// <summary>The figures of one request template (<see cref="TargetSummary"/>).</summary>
public sealed record TargetJson
{
    public int Index { get; init; }

    public string Label { get; init; } = "";

    public string Method { get; init; } = "";

    public string Url { get; init; } = "";

    public long Requests { get; init; }

    public long Succeeded { get; init; }

    public long Failed { get; init; }

    public double DurationSeconds { get; init; }

    public double ThroughputPerSecond { get; init; }

    public LatencyJson LatencyMs { get; init; } = new();

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public HandlerTimingJson? HandlerTiming { get; init; }

    public IReadOnlyDictionary<int, long> StatusCodes { get; init; } = new Dictionary<int, long>();

    public long BytesIn { get; init; }

    public long BytesOut { get; init; }

    /// <summary>The JSON of <paramref name="t"/>.</summary>
    public static TargetJson From(TargetSummary t)
    {
        ArgumentNullException.ThrowIfNull(t);
        return new()
        {
            Index = t.Index, Label = t.Label, Method = t.Method, Url = t.Url.ToString(), Requests = t.Requests, Succeeded = t.Succeeded,
            Failed = t.Failed, DurationSeconds = t.DurationSeconds, ThroughputPerSecond = t.DurationSeconds > 0 ? t.Requests / t.DurationSeconds : 0,
            LatencyMs = LatencyJson.From(t.LatencyMs), HandlerTiming = HandlerTimingJson.From(t.HandlerTiming), StatusCodes = t.StatusCodes,
            BytesIn = t.BytesIn, BytesOut = t.BytesOut,
        };
    }
}

/// <summary>The source-generated serializer of <see cref="LoadJson"/> (and of the merged intervals, <see cref="MergedJson"/>): every figure to three decimals, microseconds in milliseconds.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(LoadJson))]
[JsonSerializable(typeof(MergedJson))]
[JsonSerializable(typeof(LoadPageJson))]
internal sealed partial class LoadJsonContext : JsonSerializerContext
{
    /// <summary>Indented, as <c>--format json</c> writes it.</summary>
    public static LoadJsonContext Indented { get; } = new(TplabJson.Options(indented: true, numbers: new Round3()));
}
