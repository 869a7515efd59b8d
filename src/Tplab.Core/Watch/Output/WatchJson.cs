using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Runtime;
using Tplab.Watch.Delay;
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
    /// <summary>The watched process (a watch of several mixes their lines); absent in files written before it was kept.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Pid { get; init; }

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

    /// <summary>The estimate of the scheduling delay (queue ÷ completed/s); null when items were queued and none completed.</summary>
    [JsonConverter(typeof(Round2))]
    public double? EstimatedDelayMs { get; init; }

    /// <summary>The measured scheduling delay of the interval; absent when the events were off for all of it.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public DelayLine? Delay { get; init; }

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
            Pid = s.ProcessId == 0 ? null : s.ProcessId, EstimatedDelayMs = s.EstimatedDelayMs, Delay = s.Delay is { } d ? DelayLine.From(d) : null,
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
        ProcessId = Pid ?? 0, Delay = Delay?.ToDelay(),
    };
}

/// <summary>The measured scheduling delay of one sample's interval (<see cref="SchedulingDelay"/>), inside a sample line.</summary>
public sealed record DelayLine
{
    public long Count { get; init; }

    [JsonConverter(typeof(Round3))]
    public double MeanMs { get; init; }

    [JsonConverter(typeof(Round3))]
    public double P50Ms { get; init; }

    [JsonConverter(typeof(Round3))]
    public double P99Ms { get; init; }

    [JsonConverter(typeof(Round3))]
    public double MaxMs { get; init; }

    public long Unpaired { get; init; }

    public int Waiting { get; init; }

    [JsonConverter(typeof(Round1))]
    public double OldestWaitingMs { get; init; }

    [JsonConverter(typeof(Round3))]
    public double CoverageSeconds { get; init; }

    /// <summary>The line of <paramref name="d"/>.</summary>
    public static DelayLine From(SchedulingDelay d)
    {
        ArgumentNullException.ThrowIfNull(d);
        return new()
        {
            Count = d.Count, MeanMs = d.MeanMs, P50Ms = d.P50Ms, P99Ms = d.P99Ms, MaxMs = d.MaxMs, Unpaired = d.Unpaired,
            Waiting = d.Waiting, OldestWaitingMs = d.OldestWaitingMs, CoverageSeconds = d.CoverageSeconds,
        };
    }

    /// <summary>The figures this line holds (without the buckets, which files do not keep).</summary>
    public SchedulingDelay ToDelay() => new(Count, MeanMs, P50Ms, P99Ms, MaxMs, Unpaired, Waiting, OldestWaitingMs, CoverageSeconds);
}

/// <summary>A <see cref="ThreadPoolInjection"/> as one line.</summary>
public sealed record InjectionLine : WatchLine
{
    /// <summary>The watched process; absent in files written before it was kept.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Pid { get; init; }

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
            Pid = i.ProcessId == 0 ? null : i.ProcessId, OffsetSeconds = i.Offset.TotalSeconds, NewThreadCount = i.NewThreadCount, Reason = i.ReasonName, ReasonCode = i.ReasonCode,
            AverageThroughput = i.AverageThroughput,
        };
    }

    /// <summary>The injection this line holds.</summary>
    public ThreadPoolInjection ToInjection() =>
        new(TimeSpan.FromSeconds(OffsetSeconds), NewThreadCount, InjectionReasons.FromCode(ReasonCode), ReasonCode, AverageThroughput) { ProcessId = Pid ?? 0 };
}

/// <summary>The summary of a <see cref="PoolTimeline"/>: the last line of a whole watch.</summary>
public sealed record SummaryLine : WatchLine
{
    /// <summary>The schema of the file (absent before tplab wrote it: version 1).</summary>
    [JsonPropertyOrder(-1)]
    public int? SchemaVersion { get; init; }

    [JsonRequired]
    public int ProcessId { get; init; }

    /// <summary>When the watch began (UTC); absent in files written before tplab kept it.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public DateTimeOffset? StartedAt { get; init; }

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

    /// <summary>Why the scheduling delay was not measured, when it was not.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? DelayNote { get; init; }

    /// <summary>The watch's verdict; null when it took no sample (no verdict is claimed, the evidence says why).</summary>
    [JsonRequired, JsonConverter(typeof(WordConverter<PoolVerdict>))]
    public PoolVerdict? Verdict { get; init; }

    public string Evidence { get; init; } = "";

    /// <summary>The summary line of <paramref name="t"/>.</summary>
    public static SummaryLine From(PoolTimeline t)
    {
        ArgumentNullException.ThrowIfNull(t);
        return new()
        {
            SchemaVersion = CurrentSchema, ProcessId = t.ProcessId, StartedAt = t.StartedAt, IntervalSeconds = t.Interval.TotalSeconds,
            DurationSeconds = t.Duration.TotalSeconds, Samples = t.Samples.Count, ThreadsStart = t.ThreadsStart, ThreadsPeak = t.ThreadsPeak,
            OsThreadsPeak = t.OsThreadsPeak, QueuePeak = t.QueuePeak, InjectionsByReason = t.InjectionsByReason,
            FirstStarvingSeconds = t.FirstStarving?.TotalSeconds, MinWorkerThreads = t.Limits?.MinWorkerThreads,
            MaxWorkerThreads = t.Limits?.MaxWorkerThreads, ProcessExited = t.ProcessExited, DelayNote = t.DelayNote,
            Verdict = t.HasVerdict ? t.Verdict : null, Evidence = t.Evidence,
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
