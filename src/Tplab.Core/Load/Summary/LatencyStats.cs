using Tplab.Load.Histograms;

namespace Tplab.Load.Summary;

/// <summary>
/// One latency distribution in milliseconds: exact count, min, mean, population standard deviation and max;
/// percentiles from the HDR histogram (within 0.1%).
/// </summary>
public sealed record LatencyStats(
    long Count, double Min, double Mean, double StdDev,
    double P50, double P90, double P95, double P99, double P999, double Max)
{
    /// <summary>No samples.</summary>
    public static LatencyStats Empty { get; } = new(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /// <summary>Sample standard deviation (n − 1), as ab prints it.</summary>
    public double SampleStdDev => Count > 1 ? StdDev * Math.Sqrt(Count / (Count - 1.0)) : 0;
}

/// <summary>
/// Accumulates one distribution in whole ticks: exact count, min, max and mean, the variance from sums shifted by the
/// first value (stable as Welford's, with no division per sample: this runs several times per request on the event
/// loop), plus an HDR histogram of microseconds.
/// </summary>
internal sealed class LatencyAccumulator
{
    private long _count;
    private long _shift;
    private long _sumShifted;
    private double _sumSquaresShifted;
    private long _min = long.MaxValue;
    private long _max;

    public LatencyHistogram Histogram { get; } = new();

    public void Add(TimeSpan value)
    {
        var ticks = Math.Max(0, value.Ticks);
        if (_count++ == 0)
        {
            _shift = ticks;
        }
        var d = ticks - _shift;
        _sumShifted += d;
        _sumSquaresShifted += (double)d * d;
        _min = Math.Min(_min, ticks);
        _max = Math.Max(_max, ticks);
        // Whole microseconds, rounded half up (ticks are 100 ns).
        Histogram.Record((ticks + 5) / 10);
    }

    public LatencyStats Complete()
    {
        if (_count == 0)
        {
            return LatencyStats.Empty;
        }
        var meanShifted = (double)_sumShifted / _count;
        var variance = Math.Max(0, (_sumSquaresShifted / _count) - (meanShifted * meanShifted));
        return new LatencyStats(
            _count, Ms(_min), (_shift + meanShifted) / TimeSpan.TicksPerMillisecond, Math.Sqrt(variance) / TimeSpan.TicksPerMillisecond,
            At(50), At(90), At(95), At(99), At(99.9), Ms(_max));
    }

    private static double Ms(long ticks) => (double)ticks / TimeSpan.TicksPerMillisecond;

    // Percentiles come from the histogram but never lie outside the exact range.
    private double At(double percentile) => Math.Clamp(Histogram.ValueAtPercentile(percentile) / 1000.0, Ms(_min), Ms(_max));
}
