using Tplab.Load.Histograms;

namespace Tplab.Load.Reports;

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

/// <summary>Accumulates one distribution: exact moments (Welford) plus an HDR histogram of microseconds.</summary>
internal sealed class LatencyAccumulator
{
    private long _count;
    private double _mean;
    private double _m2;
    private double _min = double.MaxValue;
    private double _max;

    public LatencyHistogram Histogram { get; } = new();

    public void Add(TimeSpan value)
    {
        var ms = Math.Max(0, value.TotalMilliseconds);
        _count++;
        var delta = ms - _mean;
        _mean += delta / _count;
        _m2 += delta * (ms - _mean);
        _min = Math.Min(_min, ms);
        _max = Math.Max(_max, ms);
        Histogram.Record((long)Math.Round(ms * 1000));
    }

    public LatencyStats Complete() => _count == 0
        ? LatencyStats.Empty
        : new LatencyStats(
            _count, _min, _mean, Math.Sqrt(_m2 / _count),
            At(50), At(90), At(95), At(99), At(99.9), _max);

    // Percentiles come from the histogram but never lie outside the exact range.
    private double At(double percentile) => Math.Clamp(Histogram.ValueAtPercentile(percentile) / 1000.0, _min, _max);
}
