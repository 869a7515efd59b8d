using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// JMeter's Summary Report: one row per sampler (per request template) and the TOTAL row, with JMeter's formulas: Std. Dev. is the
/// population standard deviation, Throughput = samples / (end of last − start of first sample) in a unit
/// that keeps the figure at or above 1.0 (/sec, /min, /hour).
/// </summary>
public sealed class JMeterFormat : ISummaryFormat
{
    private static readonly string[] Columns =
        ["Label", "# Samples", "Average", "Min", "Max", "Std. Dev.", "Error %", "Throughput", "Received KB/sec", "Sent KB/sec", "Avg. Bytes"];

    /// <inheritdoc />
    public string Name => "jmeter";

    /// <inheritdoc />
    public string Description => "JMeter's Summary Report row";

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(writer);
        if (summary.Interrupted)
        {
            writer.WriteLine("(interrupted: partial results)");
        }
        var total = Row(summary.Requests, summary.Failed, summary.LatencyMs, summary.DurationSeconds, summary.BytesIn, summary.BytesOut);
        // One row per label, as JMeter gives one per sampler; a single URL keeps JMeter's default sampler name.
        var samplers = summary.Targets.Count > 1
            ? summary.Targets.Select(t => (string[])[t.Label, .. Row(t.Requests, t.Failed, t.LatencyMs, t.DurationSeconds, t.BytesIn, t.BytesOut)])
            : [["HTTP Request", .. total]];
        string[][] rows = [Columns, .. samplers, ["TOTAL", .. total]];
        var widths = Enumerable.Range(0, Columns.Length).Select(c => rows.Max(r => r[c].Length)).ToArray();
        foreach (var r in rows)
        {
            writer.WriteLine(string.Join(" | ", r.Select((cell, c) => c == 0 ? cell.PadRight(widths[c]) : cell.PadLeft(widths[c]))).TrimEnd());
        }
    }

    private static string[] Row(long requests, long failed, LatencyStats l, double seconds, long bytesIn, long bytesOut)
    {
        return
        [
            Num.F(requests),
            Num.F(Math.Round(l.Mean, MidpointRounding.AwayFromZero), "0"),
            Num.F(Math.Round(l.Min, MidpointRounding.AwayFromZero), "0"),
            Num.F(Math.Round(l.Max, MidpointRounding.AwayFromZero), "0"),
            Num.Fixed(l.StdDev, 2),
            Num.Fixed(requests == 0 ? 0 : 100.0 * failed / requests, 2) + "%",
            Throughput(requests, seconds),
            Num.Fixed(seconds > 0 ? bytesIn / 1024.0 / seconds : 0, 2),
            Num.Fixed(seconds > 0 ? bytesOut / 1024.0 / seconds : 0, 2),
            Num.Fixed(requests == 0 ? 0 : (double)bytesIn / requests, 1),
        ];
    }

    // JMeter scales the unit so the figure reads at least 1.0: per second, else per minute, else per hour.
    private static string Throughput(long samples, double seconds)
    {
        var perSecond = seconds > 0 ? samples / seconds : 0;
        return perSecond >= 1.0 || perSecond == 0 ? Num.Fixed(perSecond, 1) + "/sec"
            : perSecond * 60 >= 1.0 ? Num.Fixed(perSecond * 60, 1) + "/min"
            : Num.Fixed(perSecond * 3600, 1) + "/hour";
    }
}
