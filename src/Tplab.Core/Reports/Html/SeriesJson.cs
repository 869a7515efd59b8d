namespace Tplab.Reports.Html;

/// <summary>
/// One run's charts (report-charts.js documents the shape): plain arrays the page draws. Reports knows no feature:
/// the load fills the requests and percentiles (<c>Load.Formats.RequestSeries</c>), the watch the pool and the
/// injections (<c>Watch.Output.PoolSeries</c>).
/// </summary>
public sealed record SeriesJson(RequestSeriesJson Requests, PoolSeriesJson Pool, InjectionSeriesJson Injections, PercentilesJson Percentiles);

/// <summary>Each request drawn (thinned to at most 4,000): scheduled send, send, end in seconds, latency in ms, success, the handler's start and end.</summary>
public sealed record RequestSeriesJson(int Total, double[] Sched, double[] Start, double[] End, double[] Ms, int[] Ok, double?[] Hs, double?[] He)
{
    /// <summary>No request: a page of a watch alone.</summary>
    public static readonly RequestSeriesJson None = new(0, [], [], [], [], [], [], []);
}

/// <summary>The pool every sample: time, pool threads, OS threads, queue, completed/s, CPU %; null where the runtime's counters had not come yet.</summary>
/// <remarks>The scheduling delay in ms: measured (gaps where the events were off or nothing waited) beside the estimate
/// (gaps where nothing completed, which has no finite estimate); <c>DelayOn</c> is each interval's seconds of events.</remarks>
public sealed record PoolSeriesJson(double[] T, double?[] Threads, double[] Os, double?[] Queue, double?[] Completed, double[] Cpu)
{
    /// <summary>No sample: a page of a load alone.</summary>
    public static readonly PoolSeriesJson None = new([], [], [], [], [], []);

    public double?[] DelayP50 { get; init; } = [];

    public double?[] DelayP99 { get; init; } = [];

    public double?[] Oldest { get; init; } = [];

    public double?[] Estimate { get; init; } = [];

    public double[] DelayOn { get; init; } = [];
}

/// <summary>Each injection: time, the new thread goal, the reason.</summary>
public sealed record InjectionSeriesJson(double[] T, double[] Threads, string[] Reason)
{
    /// <summary>No injection watched.</summary>
    public static readonly InjectionSeriesJson None = new([], [], []);
}

/// <summary>The successful requests' latency at each percentile level (0–1).</summary>
public sealed record PercentilesJson(double[] P, double[] Ms)
{
    /// <summary>No successful request.</summary>
    public static readonly PercentilesJson None = new([], []);
}

/// <summary>How the series round their numbers: 3 decimals (ms, seconds), 4 for the optional pool figures; null stays null.</summary>
public static class SeriesNumbers
{
    /// <summary>Rounded to <paramref name="digits"/> decimals.</summary>
    public static double[] Numbers(IEnumerable<double> values, int digits = 3) => [.. values.Select(v => Math.Round(v, digits))];

    /// <summary>Rounded to 4 decimals, gaps kept.</summary>
    public static double?[] Optional(IEnumerable<double?> values) => [.. values.Select(v => v is double d ? Math.Round(d, 4) : (double?)null)];
}
