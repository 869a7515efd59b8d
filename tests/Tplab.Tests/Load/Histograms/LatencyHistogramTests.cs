using HdrHistogram;
using Tplab.Load.Histograms;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Histograms;

/// <summary>The HDR histogram (HdrHistogram.NET behind tplab's answers) against exact percentiles of sorted samples.</summary>
[ParallelSafe]
public sealed class LatencyHistogramTests
{
    [Theory]
    // seed, samples: log-normal latencies in µs from 50 µs to tens of seconds
    [InlineData(1, 1_000)]
    [InlineData(2, 100_000)]
    [InlineData(3, 7)]
    public void ValueAtPercentile_IsWithinThreeSignificantDigitsOfTheExactValue(int seed, int count)
    {
        var random = new Random(seed);
        var samples = Enumerable.Range(0, count).Select(_ => (long)Math.Exp(random.NextDouble() * 13 + 4)).ToArray();
        var histogram = new LatencyHistogram();
        foreach (var s in samples)
        {
            histogram.Record(s);
        }
        foreach (var p in new[] { 0.0, 1, 25, 50, 90, 95, 99, 99.9, 100 })
        {
            // The definition, not the implementation's arithmetic: the value is (within 0.1%) one that at least p% of
            // the samples do not exceed, rounded to the nearest rank, and not above one that more than that exceed.
            var value = histogram.ValueAtPercentile(p);
            var atOrBelow = samples.Count(v => v <= value * 1.001 + 1);
            var below = samples.Count(v => v < value * 0.999);
            Assert.True(atOrBelow >= Math.Max(1, (p / 100 * count) - 0.5), $"p{p}: {value} has only {atOrBelow} of {count} samples at or below it");
            Assert.True(below < Math.Max(1, (p / 100 * count) + 0.5), $"p{p}: {value} has {below} of {count} samples below it");
        }
        Assert.Equal(count, histogram.TotalCount);
    }

    [Theory]
    // ten values 1..10 (small values are kept exactly): HdrHistogram's percentile is the value at the nearest rank,
    // rank = p% of 10 rounded half up, at least 1; worked by hand
    [InlineData(0, 1)]
    [InlineData(10, 1)]
    [InlineData(24.9, 2)]
    [InlineData(25, 3)]
    [InlineData(33, 3)]
    [InlineData(34.9, 3)]
    [InlineData(35, 4)]
    [InlineData(50, 5)]
    [InlineData(90, 9)]
    [InlineData(95, 10)]
    [InlineData(100, 10)]
    public void ValueAtPercentile_OneToTen_IsTheNearestRank(double percentile, long expected)
    {
        var histogram = new LatencyHistogram();
        for (var v = 1; v <= 10; v++)
        {
            histogram.Record(v);
        }
        Assert.Equal(expected, histogram.ValueAtPercentile(percentile));
    }

    [Fact]
    public void SmallValues_AreExact()
    {
        var histogram = new LatencyHistogram();
        for (var v = 0; v < 2048; v++)
        {
            histogram.Record(v);
        }
        Assert.Equal(1023, histogram.ValueAtPercentile(50));
        Assert.Equal(2047, histogram.MaxValue);
        Assert.Equal(1023.5, histogram.Mean, precision: 6);
    }

    [Fact]
    public void PercentileDistribution_EndsAtOneHundredWithTheTotalCount()
    {
        var histogram = new LatencyHistogram();
        for (var v = 1; v <= 10_000; v++)
        {
            histogram.Record(v * 100);
        }
        var steps = histogram.Inner.Percentiles(5).Select(s => new Step(s.ValueIteratedTo, s.PercentileLevelIteratedTo, s.TotalCountToThisValue)).ToList();
        Assert.Equal(0, steps[0].Percentile);
        Assert.Equal(100, steps[^1].Percentile);
        Assert.Equal(10_000, steps[^1].TotalCount);
        Assert.True(steps.Zip(steps.Skip(1)).All(p => p.First.Percentile < p.Second.Percentile || p.Second.Percentile == 100));
        Assert.InRange(steps.First(s => s.Percentile >= 50).Value, 499_500, 500_500);
    }

    [Fact]
    public void Empty_AnswersZero()
    {
        var histogram = new LatencyHistogram();
        Assert.Equal(0, histogram.ValueAtPercentile(99));
        Assert.Empty(histogram.Inner.Percentiles(5));
    }

    // One row of the .hgrm distribution.
    private readonly record struct Step(long Value, double Percentile, long TotalCount);
}
