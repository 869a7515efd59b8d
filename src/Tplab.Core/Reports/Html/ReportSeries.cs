using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Watch;

namespace Tplab.Reports.Html;

/// <summary>
/// The data behind one run's charts (report-charts.js documents the shape): each request's send, end, latency,
/// success and handler start/end; the pool every sample; the injections by reason; the latency percentiles of the
/// successful requests. Times are seconds from the load's start (the watch's start when there was no load).
/// </summary>
public static class ReportSeries
{
    /// <summary>Most requests drawn per run; more are thinned evenly in send order, always keeping the slowest (like vegeta's plot).</summary>
    public const int MaxRequests = 4000;

    private static readonly double[] Levels = [0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999];

    /// <summary>The series of a load and/or a pool timeline; <paramref name="watchStartedAt"/> lines the timeline up with the load.</summary>
    public static SeriesJson Build(LoadResult? load, PoolTimeline? timeline, DateTimeOffset watchStartedAt)
    {
        var records = load?.Records ?? [];
        var shift = load is null ? 0 : (load.StartedAt - watchStartedAt).TotalSeconds;
        var kept = Thin(records);
        var samples = timeline?.Samples ?? [];
        var injections = timeline?.Injections ?? [];
        return new SeriesJson(
            new RequestSeriesJson(
                records.Count,
                Numbers(kept.Select(r => r.Scheduled.TotalSeconds)),
                Numbers(kept.Select(r => r.Start.TotalSeconds)),
                Numbers(kept.Select(r => r.End.TotalSeconds)),
                Numbers(kept.Select(r => r.Latency.TotalMilliseconds)),
                [.. kept.Select(r => r.Succeeded ? 1 : 0)],
                Optional(kept.Select(HandlerStart)),
                Optional(kept.Select(HandlerEnd))),
            new PoolSeriesJson(
                Numbers(samples.Select(s => s.Offset.TotalSeconds - shift)),
                // Before the runtime's first counter payload the pool's figures are unknown, not zero: left as gaps.
                Optional(samples.Select(s => Counter(s, s.ThreadCount))),
                Numbers(samples.Select(s => (double)s.OsThreads)),
                Optional(samples.Select(s => Counter(s, s.QueueLength))),
                Optional(samples.Select(s => Counter(s, s.CompletedPerSecond))),
                Numbers(samples.Select(s => s.CpuPercent)))
            {
                DelayP50 = Optional(samples.Select(s => s.Delay is { Count: > 0 } d ? d.P50Ms : (double?)null)),
                DelayP99 = Optional(samples.Select(s => s.Delay is { Count: > 0 } d ? d.P99Ms : (double?)null)),
                Oldest = Optional(samples.Select(s => s.Delay is { Waiting: > 0 } d ? d.OldestWaitingMs : (double?)null)),
                Estimate = Optional(samples.Select(s => s.EstimatedDelayMs)),
                DelayOn = Numbers(samples.Select(s => s.Delay?.CoverageSeconds ?? 0)),
            },
            new InjectionSeriesJson(
                Numbers(injections.Select(i => i.Offset.TotalSeconds - shift)),
                Numbers(injections.Select(i => (double)i.NewThreadCount)),
                [.. injections.Select(i => i.ReasonName)]),
            Percentiles(records));
    }

    private static double? Counter(ThreadPoolSample s, double value) => s.CountersAgeMs is null ? null : value;

    private static double? HandlerStart(RequestRecord r) => r.HandlerStart?.TotalSeconds;

    private static double? HandlerEnd(RequestRecord r) => r.HandlerEnd?.TotalSeconds;

    private static List<RequestRecord> Thin(IReadOnlyList<RequestRecord> records)
    {
        var bySend = records.OrderBy(r => r.Scheduled).ThenBy(r => r.Start).ToList();
        if (bySend.Count <= MaxRequests)
        {
            return bySend;
        }
        var step = (double)bySend.Count / MaxRequests;
        var kept = Enumerable.Range(0, MaxRequests).Select(i => bySend[(int)(i * step)]).ToList();
        kept.Add(bySend.MaxBy(r => r.Latency));
        return [.. kept.Distinct().OrderBy(r => r.Scheduled).ThenBy(r => r.Start)];
    }

    // Percentile levels the sample can resolve (p ≤ 1 − 1/n), the maximum last at 1 − 1/n.
    private static PercentilesJson Percentiles(IReadOnlyList<RequestRecord> records)
    {
        var sorted = records.Where(r => r.Succeeded).Select(r => r.Latency.TotalMilliseconds).Order().ToArray();
        var n = sorted.Length;
        if (n == 0)
        {
            return new PercentilesJson([], []);
        }
        var top = n == 1 ? 0 : 1 - (1.0 / n);
        var levels = Levels.Where(p => p < top).Append(top).Distinct().ToArray();
        var values = levels.Select(p => p == top ? sorted[^1] : sorted[Math.Clamp((int)Math.Ceiling(p * n) - 1, 0, n - 1)]);
        return new PercentilesJson(Numbers(levels, 6), Numbers(values));
    }

    private static double[] Numbers(IEnumerable<double> values, int digits = 3) => [.. values.Select(v => Math.Round(v, digits))];

    private static double?[] Optional(IEnumerable<double?> values) => [.. values.Select(v => v is double d ? Math.Round(d, 4) : (double?)null)];
}

/// <summary>One run's charts (report-charts.js documents the shape).</summary>
public sealed record SeriesJson(RequestSeriesJson Requests, PoolSeriesJson Pool, InjectionSeriesJson Injections, PercentilesJson Percentiles);

/// <summary>Each request drawn (thinned to <see cref="ReportSeries.MaxRequests"/>): scheduled send, send, end in seconds, latency in ms, success, the handler's start and end.</summary>
public sealed record RequestSeriesJson(int Total, double[] Sched, double[] Start, double[] End, double[] Ms, int[] Ok, double?[] Hs, double?[] He);

/// <summary>The pool every sample: time, pool threads, OS threads, queue, completed/s, CPU %; null where the runtime's counters had not come yet.</summary>
/// <remarks>The scheduling delay in ms: measured (gaps where the events were off or nothing waited) beside the estimate
/// (gaps where nothing completed, which has no finite estimate); <c>DelayOn</c> is each interval's seconds of events.</remarks>
public sealed record PoolSeriesJson(double[] T, double?[] Threads, double[] Os, double?[] Queue, double?[] Completed, double[] Cpu)
{
    public double?[] DelayP50 { get; init; } = [];

    public double?[] DelayP99 { get; init; } = [];

    public double?[] Oldest { get; init; } = [];

    public double?[] Estimate { get; init; } = [];

    public double[] DelayOn { get; init; } = [];
}

/// <summary>Each injection: time, the new thread goal, the reason.</summary>
public sealed record InjectionSeriesJson(double[] T, double[] Threads, string[] Reason);

/// <summary>The successful requests' latency at each percentile level (0–1).</summary>
public sealed record PercentilesJson(double[] P, double[] Ms);
