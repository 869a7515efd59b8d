using Tplab.Reports.Html;
using static Tplab.Reports.Html.SeriesNumbers;

namespace Tplab.Watch.Output;

/// <summary>
/// The pool's half of a run's charts: every sample (threads, OS threads, queue, completed/s, CPU, the scheduling
/// delay) and every injection. Times are seconds from the watch's start, less <c>shift</c> when a load started later
/// and the charts count from the load.
/// </summary>
public static class PoolSeries
{
    /// <summary>The samples and injections of <paramref name="timeline"/>, shifted by <paramref name="shiftSeconds"/>.</summary>
    public static (PoolSeriesJson Pool, InjectionSeriesJson Injections) Build(PoolTimeline timeline, double shiftSeconds = 0)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        var samples = timeline.Samples;
        var injections = timeline.Injections;
        var pool = new PoolSeriesJson(
            Numbers(samples.Select(s => s.Offset.TotalSeconds - shiftSeconds)),
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
        };
        var injected = new InjectionSeriesJson(
            Numbers(injections.Select(i => i.Offset.TotalSeconds - shiftSeconds)),
            Numbers(injections.Select(i => (double)i.NewThreadCount)),
            [.. injections.Select(i => i.ReasonName)]);
        return (pool, injected);
    }

    /// <summary>The page's series of a watch alone: no request drawn.</summary>
    public static SeriesJson Alone(PoolTimeline timeline)
    {
        var (pool, injections) = Build(timeline);
        return new SeriesJson(RequestSeriesJson.None, pool, injections, PercentilesJson.None);
    }

    private static double? Counter(ThreadPoolSample s, double value) => s.CountersAgeMs is null ? null : value;
}
