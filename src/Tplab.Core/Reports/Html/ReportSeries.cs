using System.Text.Json.Nodes;
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
    public static JsonObject Build(LoadResult? load, PoolTimeline? timeline, DateTimeOffset watchStartedAt)
    {
        var records = load?.Records ?? [];
        var shift = load is null ? 0 : (load.StartedAt - watchStartedAt).TotalSeconds;
        var kept = Thin(records);
        var samples = timeline?.Samples ?? [];
        var injections = timeline?.Injections ?? [];
        return new JsonObject
        {
            ["requests"] = new JsonObject
            {
                ["total"] = records.Count,
                ["sched"] = Numbers(kept.Select(r => r.Scheduled.TotalSeconds)),
                ["start"] = Numbers(kept.Select(r => r.Start.TotalSeconds)),
                ["end"] = Numbers(kept.Select(r => r.End.TotalSeconds)),
                ["ms"] = Numbers(kept.Select(r => r.Latency.TotalMilliseconds)),
                ["ok"] = new JsonArray([.. kept.Select(r => JsonValue.Create(r.Succeeded ? 1 : 0))]),
                ["hs"] = Optional(kept.Select(HandlerStart)),
                ["he"] = Optional(kept.Select(HandlerEnd)),
            },
            ["pool"] = new JsonObject
            {
                ["t"] = Numbers(samples.Select(s => s.Offset.TotalSeconds - shift)),
                // Before the runtime's first counter payload the pool's figures are unknown, not zero: left as gaps.
                ["threads"] = Optional(samples.Select(s => Counter(s, s.ThreadCount))),
                ["os"] = Numbers(samples.Select(s => (double)s.OsThreads)),
                ["queue"] = Optional(samples.Select(s => Counter(s, s.QueueLength))),
                ["completed"] = Optional(samples.Select(s => Counter(s, s.CompletedPerSecond))),
                ["cpu"] = Numbers(samples.Select(s => s.CpuPercent)),
                // The scheduling delay in ms: measured (gaps where the events were off) beside the estimate (gaps where
                // nothing completed, which has no finite estimate).
                ["delayP50"] = Optional(samples.Select(s => s.Delay is { Count: > 0 } d ? d.P50Ms : (double?)null)),
                ["delayP99"] = Optional(samples.Select(s => s.Delay is { Count: > 0 } d ? d.P99Ms : (double?)null)),
                ["oldest"] = Optional(samples.Select(s => s.Delay is { Waiting: > 0 } d ? d.OldestWaitingMs : (double?)null)),
                ["estimate"] = Optional(samples.Select(s => s.EstimatedDelayMs)),
                ["delayOn"] = Numbers(samples.Select(s => s.Delay?.CoverageSeconds ?? 0)),
            },
            ["injections"] = new JsonObject
            {
                ["t"] = Numbers(injections.Select(i => i.Offset.TotalSeconds - shift)),
                ["threads"] = Numbers(injections.Select(i => (double)i.NewThreadCount)),
                ["reason"] = new JsonArray([.. injections.Select(i => JsonValue.Create(i.ReasonName))]),
            },
            ["percentiles"] = Percentiles(records),
        };
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
    private static JsonObject Percentiles(IReadOnlyList<RequestRecord> records)
    {
        var sorted = records.Where(r => r.Succeeded).Select(r => r.Latency.TotalMilliseconds).Order().ToArray();
        var n = sorted.Length;
        if (n == 0)
        {
            return new JsonObject { ["p"] = new JsonArray(), ["ms"] = new JsonArray() };
        }
        var top = n == 1 ? 0 : 1 - (1.0 / n);
        var levels = Levels.Where(p => p < top).Append(top).Distinct().ToArray();
        var values = levels.Select(p => p == top ? sorted[^1] : sorted[Math.Clamp((int)Math.Ceiling(p * n) - 1, 0, n - 1)]);
        return new JsonObject { ["p"] = Numbers(levels, 6), ["ms"] = Numbers(values) };
    }

    private static JsonArray Numbers(IEnumerable<double> values, int digits = 3) => new([.. values.Select(v => JsonValue.Create(Math.Round(v, digits)))]);

    private static JsonArray Optional(IEnumerable<double?> values) =>
        new([.. values.Select(v => v is double d ? JsonValue.Create(Math.Round(d, 4)) : null)]);
}
