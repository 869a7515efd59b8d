using Tplab.Load.Engine;
using Tplab.Reports.Html;
using static Tplab.Reports.Html.SeriesNumbers;

namespace Tplab.Load.Formats;

/// <summary>
/// The requests' half of a run's charts: each request's send, end, latency, success and handler start/end (thinned
/// evenly in send order, always keeping the slowest, like vegeta's plot), and the successful requests' percentiles.
/// Times are seconds from the load's start.
/// </summary>
public static class RequestSeries
{
    /// <summary>Most requests drawn per run.</summary>
    public const int MaxRequests = 4000;

    private static readonly double[] Levels = [0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999];

    /// <summary>The requests drawn and the percentiles of <paramref name="records"/>.</summary>
    public static (RequestSeriesJson Requests, PercentilesJson Percentiles) Build(IReadOnlyList<RequestRecord> records)
    {
        ArgumentNullException.ThrowIfNull(records);
        var kept = Thin(records);
        var requests = new RequestSeriesJson(
            records.Count,
            Numbers(kept.Select(r => r.Scheduled.TotalSeconds)),
            Numbers(kept.Select(r => r.Start.TotalSeconds)),
            Numbers(kept.Select(r => r.End.TotalSeconds)),
            Numbers(kept.Select(r => r.Latency.TotalMilliseconds)),
            [.. kept.Select(r => r.Succeeded ? 1 : 0)],
            Optional(kept.Select(r => r.HandlerStart?.TotalSeconds)),
            Optional(kept.Select(r => r.HandlerEnd?.TotalSeconds)));
        return (requests, Percentiles(records));
    }

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
            return PercentilesJson.None;
        }
        var top = n == 1 ? 0 : 1 - (1.0 / n);
        var levels = Levels.Where(p => p < top).Append(top).Distinct().ToArray();
        var values = levels.Select(p => p == top ? sorted[^1] : sorted[Math.Clamp((int)Math.Ceiling(p * n) - 1, 0, n - 1)]);
        return new PercentilesJson(Numbers(levels, 6), Numbers(values));
    }
}
