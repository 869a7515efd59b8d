using System.Text.Json;
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
                var buffer = new MemoryStream();
                using (var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
                {
                    json.WriteStartObject();
                    json.WriteNumber("files", merged.Files);
                    json.WriteNumber("intervals", merged.Intervals);
                    json.WriteString("start", merged.Start?.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", System.Globalization.CultureInfo.InvariantCulture));
                    json.WriteNumber("durationSeconds", Math.Round(seconds, 3));
                    json.WriteNumber("requests", h.TotalCount);
                    json.WriteNumber("throughputPerSecond", Math.Round(rate, 3));
                    json.WriteStartObject("latencyMs");
                    json.WriteNumber("mean", Math.Round(h.Mean / 1000, 3));
                    foreach (var p in percentiles)
                    {
                        json.WriteNumber("p" + Num.F(p, "0.##").Replace(".", "", StringComparison.Ordinal), Math.Round(h.ValueAtPercentile(p) / 1000.0, 3));
                    }
                    json.WriteNumber("max", Math.Round(h.MaxValue / 1000.0, 3));
                    json.WriteEndObject();
                    json.WriteEndObject();
                }
                writer.Write(System.Text.Encoding.UTF8.GetString(buffer.ToArray()) + "\n");
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
