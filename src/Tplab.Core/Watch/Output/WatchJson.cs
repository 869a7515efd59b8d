using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Runtime;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// One line of a watch's JSONL (<c>--format jsonl</c>, a lab scenario's timeline.jsonl; docs/schemas/watch.schema.json):
/// a sample, an injection or the summary, told apart by <c>"type"</c>. The writer and the reader both go through these
/// records. A line of a type this version does not know is read as a bare <see cref="WatchLine"/> and skipped.
/// </summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "type", IgnoreUnrecognizedTypeDiscriminators = true)]
[JsonDerivedType(typeof(SampleLine), "sample")]
[JsonDerivedType(typeof(InjectionLine), "injection")]
[JsonDerivedType(typeof(SummaryLine), "summary")]
public record WatchLine
{
    /// <summary>The version written in the summary line; a file without it is version 1, which had the same fields.</summary>
    public const int CurrentSchema = 1;
}

/// <summary>A <see cref="ThreadPoolSample"/> as one line.</summary>
public sealed record SampleLine : WatchLine
{
    [JsonRequired, JsonConverter(typeof(Round3))]
    public double OffsetSeconds { get; init; }

    [JsonRequired]
    public int ThreadCount { get; init; }

    [JsonRequired]
    public long QueueLength { get; init; }

    [JsonRequired, JsonConverter(typeof(Round1))]
    public double CompletedPerSecond { get; init; }

    [JsonRequired]
    public int OsThreads { get; init; }

    [JsonRequired, JsonConverter(typeof(Round1))]
    public double CpuPercent { get; init; }

    [JsonRequired, JsonConverter(typeof(Round1))]
    public double ContentionsPerSecond { get; init; }

    [JsonConverter(typeof(Round2))]
    public double Cores { get; init; }

    [JsonConverter(typeof(Round1))]
    public double? MachineCpuPercent { get; init; }

    [JsonConverter(typeof(Round1))]
    public double? LockWaiters { get; init; }

    [JsonConverter(typeof(Round1))]
    public double? RunnableWorkers { get; init; }

    [JsonConverter(typeof(Round0))]
    public double? CountersAgeMs { get; init; }

    [JsonRequired, JsonConverter(typeof(WordConverter<PoolVerdict>))]
    public PoolVerdict Verdict { get; init; }

    [JsonRequired]
    public string Evidence { get; init; } = "";

    /// <summary>The line of <paramref name="s"/>.</summary>
    public static SampleLine From(ThreadPoolSample s)
    {
        ArgumentNullException.ThrowIfNull(s);
        return new()
        {
            OffsetSeconds = s.Offset.TotalSeconds, ThreadCount = s.ThreadCount, QueueLength = s.QueueLength,
            CompletedPerSecond = s.CompletedPerSecond, OsThreads = s.OsThreads, CpuPercent = s.CpuPercent,
            ContentionsPerSecond = s.ContentionsPerSecond, Cores = s.Cores, MachineCpuPercent = s.MachineCpuPercent,
            LockWaiters = s.LockWaiters, RunnableWorkers = s.RunnableWorkers, CountersAgeMs = s.CountersAgeMs,
            Verdict = s.Verdict, Evidence = s.Evidence,
        };
    }

    /// <summary>The sample this line holds.</summary>
    public ThreadPoolSample ToSample() => new(
        TimeSpan.FromSeconds(OffsetSeconds), ThreadCount, QueueLength, CompletedPerSecond, OsThreads, CpuPercent, ContentionsPerSecond,
        CountersAgeMs, Verdict, Evidence)
    {
        Cores = Cores, MachineCpuPercent = MachineCpuPercent, LockWaiters = LockWaiters, RunnableWorkers = RunnableWorkers,
    };
}

/// <summary>A <see cref="ThreadPoolInjection"/> as one line.</summary>
public sealed record InjectionLine : WatchLine
{
    [JsonRequired, JsonConverter(typeof(Round3))]
    public double OffsetSeconds { get; init; }

    [JsonRequired]
    public int NewThreadCount { get; init; }

    /// <summary>The reason's name (Starvation, CooperativeBlocking, Unknown(9)); <see cref="ReasonCode"/> is what is read back.</summary>
    public string Reason { get; init; } = "";

    [JsonRequired]
    public long ReasonCode { get; init; }

    [JsonRequired, JsonConverter(typeof(Round1))]
    public double AverageThroughput { get; init; }

    /// <summary>The line of <paramref name="i"/>.</summary>
    public static InjectionLine From(ThreadPoolInjection i)
    {
        ArgumentNullException.ThrowIfNull(i);
        return new()
        {
            OffsetSeconds = i.Offset.TotalSeconds, NewThreadCount = i.NewThreadCount, Reason = i.ReasonName, ReasonCode = i.ReasonCode,
            AverageThroughput = i.AverageThroughput,
        };
    }

    /// <summary>The injection this line holds.</summary>
    public ThreadPoolInjection ToInjection() =>
        new(TimeSpan.FromSeconds(OffsetSeconds), NewThreadCount, InjectionReasons.FromCode(ReasonCode), ReasonCode, AverageThroughput);
}

/// <summary>The summary of a <see cref="PoolTimeline"/>: the last line of a whole watch.</summary>
public sealed record SummaryLine : WatchLine
{
    /// <summary>The schema of the file (absent before tplab wrote it: version 1).</summary>
    [JsonPropertyOrder(-1)]
    public int? SchemaVersion { get; init; }

    [JsonRequired]
    public int ProcessId { get; init; }

    [JsonRequired, JsonConverter(typeof(Round3))]
    public double IntervalSeconds { get; init; }

    [JsonRequired, JsonConverter(typeof(Round3))]
    public double DurationSeconds { get; init; }

    public int Samples { get; init; }

    public int ThreadsStart { get; init; }

    public int ThreadsPeak { get; init; }

    public int OsThreadsPeak { get; init; }

    public long QueuePeak { get; init; }

    public IReadOnlyDictionary<string, int> InjectionsByReason { get; init; } = new Dictionary<string, int>();

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull), JsonConverter(typeof(Round3))]
    public double? FirstStarvingSeconds { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? MinWorkerThreads { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? MaxWorkerThreads { get; init; }

    public bool ProcessExited { get; init; }

    [JsonRequired, JsonConverter(typeof(WordConverter<PoolVerdict>))]
    public PoolVerdict Verdict { get; init; }

    public string Evidence { get; init; } = "";

    /// <summary>The summary line of <paramref name="t"/>.</summary>
    public static SummaryLine From(PoolTimeline t)
    {
        ArgumentNullException.ThrowIfNull(t);
        return new()
        {
            SchemaVersion = CurrentSchema, ProcessId = t.ProcessId, IntervalSeconds = t.Interval.TotalSeconds,
            DurationSeconds = t.Duration.TotalSeconds, Samples = t.Samples.Count, ThreadsStart = t.ThreadsStart, ThreadsPeak = t.ThreadsPeak,
            OsThreadsPeak = t.OsThreadsPeak, QueuePeak = t.QueuePeak, InjectionsByReason = t.InjectionsByReason,
            FirstStarvingSeconds = t.FirstStarving?.TotalSeconds, MinWorkerThreads = t.Limits?.MinWorkerThreads,
            MaxWorkerThreads = t.Limits?.MaxWorkerThreads, ProcessExited = t.ProcessExited, Verdict = t.Verdict, Evidence = t.Evidence,
        };
    }

    /// <summary>
    /// The pool's limits as the summary kept them (worker threads only: the I/O threads are not written, so they read as 0).
    /// </summary>
    [JsonIgnore]
    public MinMaxEvent? Limits => MinWorkerThreads is { } min && MaxWorkerThreads is { } max ? new MinMaxEvent(0, min, max, 0, 0) : null;
}

/// <summary>The source-generated serializer of <see cref="WatchLine"/>: one line each, never indented.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(WatchLine))]
[JsonSerializable(typeof(WatchPageJson))]
internal sealed partial class WatchJsonContext : JsonSerializerContext
{
    /// <summary>The context with tplab's options (<see cref="TplabJson.Options"/>).</summary>
    public static WatchJsonContext Lines { get; } = new(TplabJson.Options(indented: false));
}
