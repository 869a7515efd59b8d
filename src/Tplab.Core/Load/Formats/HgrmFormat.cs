using HdrHistogram;
using Tplab.Load.Histograms;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// HdrHistogram's percentile distribution (outputPercentileDistribution, 5 ticks per half distance, values in ms):
/// the .hgrm file the HdrHistogram plotter reads.
/// </summary>
public sealed class HgrmFormat : ISummaryFormat
{
    private const double MicrosPerMs = 1000.0;

    /// <inheritdoc />
    public string Name => "hgrm";

    /// <inheritdoc />
    public string Description => "HdrHistogram percentile distribution of latency (ms)";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".hgrm"];

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        WriteDistribution(summary.LatencyHistogramMicros, writer);
    }

    /// <summary>The percentile distribution of a histogram of microseconds, in ms (also what <c>tplab load merge --format hgrm</c> prints).</summary>
    public static void WriteDistribution(LatencyHistogram h, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(h);
        ArgumentNullException.ThrowIfNull(writer);
        const int d = LatencyHistogram.SignificantDigits;
        writer.Write($"{"Value",12} {"Percentile",14} {"TotalCount",10} {"1/(1-Percentile)",14}\n\n");
        // HdrHistogram.NET's percentile iterator, formatted here: its own writer formats with the writer's culture
        // (de-DE would print 1,234) and prints NaN for an empty histogram's mean.
        foreach (var step in h.Inner.Percentiles(5))
        {
            var fraction = step.PercentileLevelIteratedTo / 100.0;
            var value = step.ValueIteratedTo / MicrosPerMs;
            writer.Write(!step.IsLastValue()
                ? $"{Num.Fixed(value, d, 12)} {Num.Fixed(fraction, 12, 2)} {Num.Int(step.TotalCountToThisValue, 10)} {Num.Fixed(1 / (1 - fraction), 2, 14)}\n"
                : $"{Num.Fixed(value, d, 12)} {Num.Fixed(fraction, 12, 2)} {Num.Int(step.TotalCountToThisValue, 10)}\n");
        }
        writer.Write($"#[Mean    = {Num.Fixed(h.Mean / MicrosPerMs, d, 12)}, StdDeviation   = {Num.Fixed(h.StdDeviation / MicrosPerMs, d, 12)}]\n");
        writer.Write($"#[Max     = {Num.Fixed(h.MaxValue / MicrosPerMs, d, 12)}, Total count    = {Num.Int(h.TotalCount, 12)}]\n");
        writer.Write($"#[Buckets = {Num.Int(h.BucketCount, 12)}, SubBuckets     = {Num.Int(h.SubBuckets, 12)}]\n");
    }
}
