using Tplab.Watch.Delay;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Delay;

/// <summary>The delay histogram: quantiles within a bucket's 10%, totals exact.</summary>
[ParallelSafe]
public sealed class DelayHistogramTests
{
    [Theory]
    // quantile, expected (ms), for the waits 1..1000 ms
    [InlineData(0.5, 500)]
    [InlineData(0.99, 990)]
    [InlineData(1.0, 1000)]
    [InlineData(0.01, 10)]
    public void QuantileMs_UniformWaits_WithinTenPercent(double q, double expected)
    {
        var h = new DelayHistogram();
        for (var ms = 1; ms <= 1000; ms++)
        {
            h.Add(ms);
        }

        var d = h.Snapshot();

        Assert.InRange(d.QuantileMs(q), expected * 0.9, expected * 1.1);
        Assert.Equal(500500, d.SumMs, 6);
        Assert.Equal(1000, d.Count);
    }

    [Theory]
    [InlineData(0, 0)]
    [InlineData(0.0009, 0)]
    [InlineData(1e9, DelayHistogram.BucketCount - 1)]
    public void Index_Extremes_StayInRange(double ms, int bucket) => Assert.Equal(bucket, DelayHistogram.Index(ms));

    [Fact]
    public void Plus_TwoIntervals_AddUp()
    {
        var a = new DelayHistogram();
        a.Add(1);
        var b = new DelayHistogram();
        b.Add(3000);

        var sum = a.Snapshot().Plus(b.Snapshot());

        Assert.Equal(2, sum.Count);
        Assert.Equal(3001, sum.SumMs, 6);
        Assert.Equal(3000, sum.MaxMs);
        Assert.Equal(0, DelayDistribution.Empty.QuantileMs(0.99));
    }
}
