using Tplab.Common.Json;
using Tplab.Load.Formats;
using Tplab.Load.Histograms;

namespace Tplab.Load.Summary;

/// <summary>
/// <c>tplab load merge</c>: the latency of several runs' interval logs added into one histogram (exact: the same
/// counts as one histogram recorded everything), with the request count and rate over the logs' combined span.
/// </summary>
public static class MergeReport
{
    /// <summary>The formats <c>merge</c> writes.</summary>
    public const string Formats = "text, json, hgrm";

    /// <summary>Writes <paramref name="merged"/> as <paramref name="format"/> (text, json or hgrm).</summary>
    public static void Write(HistogramLog.Merged merged, string format, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(merged);
        ArgumentNullException.ThrowIfNull(writer);
        var h = merged.Histogram;
        var seconds = merged.Start is { } s && merged.End is { } e ? (e - s).TotalSeconds : 0;
        var rate = seconds > 0 ? h.TotalCount / seconds : 0;
        double[] percentiles = [50, 90, 95, 99, 99.9, 99.99];
        switch (format)
        {
            case "hgrm":
                HgrmFormat.WriteDistribution(h, writer);
                return;
            case "json":
                TplabJson.Write(MergedJson.From(merged, seconds), LoadJsonContext.Indented.MergedJson, writer);
                return;
            default:
                writer.WriteLine($"tplab load merge: {Num.F(merged.Files)} logs, {Num.F(merged.Intervals)} intervals, {Num.Fixed(seconds, 3)} s from the first interval's start to the last one's end");
                writer.WriteLine($"Requests      {Num.F(h.TotalCount)}");
                writer.WriteLine($"Throughput    {Num.Fixed(rate, 2)} req/s");
                writer.WriteLine($"Latency (ms)  mean {Num.Fixed(h.Mean / 1000, 2)}  {string.Join("  ", percentiles.Select(p => $"p{Num.F(p, "0.##")} {Num.Fixed(h.ValueAtPercentile(p) / 1000.0, 2)}"))}  max {Num.Fixed(h.MaxValue / 1000.0, 2)}");
                return;
        }
    }
}
