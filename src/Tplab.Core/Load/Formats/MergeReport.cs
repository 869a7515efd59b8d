using Tplab.Common.Json;
using Tplab.Common.Output;
using Tplab.Load.Histograms;

namespace Tplab.Load.Formats;

/// <summary>
/// <c>tplab load merge</c>: the latency of several runs' interval logs added into one histogram (exact: the same
/// counts as one histogram recorded everything), with the request count and rate over the logs' combined span.
/// </summary>
public static class MergeReport
{
    /// <summary>The formats of <c>merge --format</c>: text (the default), json, hgrm.</summary>
    public static FormatCatalogue<IDocumentFormat<HistogramLog.Merged>> Catalogue { get; } = new(
        new DocumentFormat<HistogramLog.Merged>("text", "requests, rate and latency percentiles", [".txt"], WriteText),
        new DocumentFormat<HistogramLog.Merged>("json", "the same as JSON (docs/schemas/load-merge.schema.json)", [".json"], WriteJson),
        new DocumentFormat<HistogramLog.Merged>("hgrm", "HdrHistogram percentile distribution of latency (ms)", [".hgrm"], (m, w) => HgrmFormat.WriteDistribution(m.Histogram, w)));

    /// <summary>Writes <paramref name="merged"/> as <paramref name="format"/> (text, json or hgrm); another name is a usage error.</summary>
    public static void Write(HistogramLog.Merged merged, string format, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(merged);
        ArgumentNullException.ThrowIfNull(writer);
        Catalogue.Find(format).Write(merged, writer);
    }

    private static double Seconds(HistogramLog.Merged m) => m.Start is { } s && m.End is { } e ? (e - s).TotalSeconds : 0;

    private static void WriteJson(HistogramLog.Merged merged, TextWriter writer) =>
        TplabJson.Write(MergedJson.From(merged, Seconds(merged)), LoadJsonContext.Indented.MergedJson, writer);

    private static void WriteText(HistogramLog.Merged merged, TextWriter writer)
    {
        var h = merged.Histogram;
        var seconds = Seconds(merged);
        var rate = seconds > 0 ? h.TotalCount / seconds : 0;
        double[] percentiles = [50, 90, 95, 99, 99.9, 99.99];
        writer.WriteLine($"tplab load merge: {Num.F(merged.Files)} logs, {Num.F(merged.Intervals)} intervals, {Num.Fixed(seconds, 3)} s from the first interval's start to the last one's end");
        writer.WriteLine($"Requests      {Num.F(h.TotalCount)}");
        writer.WriteLine($"Throughput    {Num.Fixed(rate, 2)} req/s");
        writer.WriteLine($"Latency (ms)  mean {Num.Fixed(h.Mean / 1000, 2)}  {string.Join("  ", percentiles.Select(p => $"p{Num.F(p, "0.##")} {Num.Fixed(h.ValueAtPercentile(p) / 1000.0, 2)}"))}  max {Num.Fixed(h.MaxValue / 1000.0, 2)}");
    }
}
