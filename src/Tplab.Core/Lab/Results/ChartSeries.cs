using System.Text.Json.Nodes;
using Tplab.Lab.Running;

namespace Tplab.Lab.Results;

/// <summary>
/// The data behind a scenario's charts in report.html: each request's latency at its scheduled send, the pool
/// every sample, the injections by reason, and the latency percentiles. Times are seconds from the first send.
/// </summary>
internal static class ChartSeries
{
    /// <summary>Most latency points per scenario; more are thinned evenly, always keeping the slowest (like vegeta's plot).</summary>
    public const int MaxLatencyPoints = 4000;

    private static readonly double[] Percentiles = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 1];

    public static JsonObject Build(ScenarioResult r)
    {
        var records = r.Load?.Records ?? [];
        var loadStart = r.Load?.StartedAt ?? r.WatchStartedAt;
        var shift = (loadStart - r.WatchStartedAt).TotalSeconds;
        var points = Thin(records.Select(x => (T: x.Scheduled.TotalSeconds, Ms: x.Latency.TotalMilliseconds)).ToList());
        var sorted = records.Select(x => x.Latency.TotalMilliseconds).Order().ToArray();
        var samples = r.Timeline?.Samples ?? [];
        var injections = r.Timeline?.Injections ?? [];
        return new JsonObject
        {
            ["latency"] = new JsonObject { ["t"] = Numbers(points.Select(p => p.T)), ["ms"] = Numbers(points.Select(p => p.Ms)) },
            ["pool"] = new JsonObject
            {
                ["t"] = Numbers(samples.Select(s => s.Offset.TotalSeconds - shift)),
                ["threads"] = Numbers(samples.Select(s => (double)s.ThreadCount)),
                ["queue"] = Numbers(samples.Select(s => (double)s.QueueLength)),
            },
            ["injections"] = new JsonObject
            {
                ["t"] = Numbers(injections.Select(i => i.Offset.TotalSeconds - shift)),
                ["threads"] = Numbers(injections.Select(i => (double)i.NewThreadCount)),
                ["reason"] = new JsonArray([.. injections.Select(i => JsonValue.Create(i.ReasonName))]),
            },
            ["percentiles"] = sorted.Length == 0
                ? new JsonObject { ["p"] = new JsonArray(), ["ms"] = new JsonArray() }
                : new JsonObject
                {
                    ["p"] = Numbers(Percentiles),
                    ["ms"] = Numbers(Percentiles.Select(p => sorted[(int)Math.Min(sorted.Length - 1, Math.Ceiling(p * sorted.Length) - (p > 0 ? 1 : 0))])),
                },
        };
    }

    private static List<(double T, double Ms)> Thin(List<(double T, double Ms)> points)
    {
        if (points.Count <= MaxLatencyPoints)
        {
            return points;
        }
        var step = (double)points.Count / MaxLatencyPoints;
        var kept = Enumerable.Range(0, MaxLatencyPoints).Select(i => points[(int)(i * step)]).ToList();
        kept.Add(points.MaxBy(p => p.Ms));
        return [.. kept.OrderBy(p => p.T)];
    }

    private static JsonArray Numbers(IEnumerable<double> values) => new([.. values.Select(v => JsonValue.Create(Math.Round(v, 3)))]);
}
