using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Summary;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Summary;

/// <summary>The moments and the exact samples the aggregator keeps.</summary>
[ParallelSafe]
public sealed class SummaryAggregatorTests
{
    private static readonly LoadOptions Closed = new() { Url = new Uri("http://127.0.0.1:1/"), Concurrency = 1 };

    [Fact]
    public void Moments_AreExact_ForTenToAHundredMilliseconds()
    {
        var summary = Aggregate(Closed, Enumerable.Range(1, 10).Select(i => TimeSpan.FromMilliseconds(10 * i)));
        Assert.Equal(10, summary.LatencyMs.Min);
        Assert.Equal(100, summary.LatencyMs.Max);
        Assert.Equal(55, summary.LatencyMs.Mean, 9);
        Assert.Equal(Math.Sqrt(825), summary.LatencyMs.StdDev, 9);
    }

    [Fact]
    public void Moments_StayExact_WhenTheSpreadIsTinyBesideTheMean()
    {
        // An hour plus 0.1 .. 1.0 ms: a naive sum of squares would lose the spread to rounding.
        var hour = TimeSpan.FromHours(1);
        var summary = Aggregate(Closed, Enumerable.Range(1, 10).Select(i => hour + TimeSpan.FromTicks(1000 * i)));
        Assert.Equal(3_600_000.55, summary.LatencyMs.Mean, 6);
        Assert.Equal(Math.Sqrt(0.0825), summary.LatencyMs.StdDev, 9);
    }

    [Fact]
    public void ExactLatencies_AreKeptOnlyWhenAsked()
    {
        var samples = Enumerable.Range(1, 5).Select(i => TimeSpan.FromMilliseconds(6 - i)).ToList();
        Assert.Null(Aggregate(Closed, samples).SortedLatenciesMs);
        Assert.Equal([1.0, 2, 3, 4, 5], Aggregate(Closed with { ExactLatencies = true }, samples).SortedLatenciesMs);
    }

    private static LoadSummary Aggregate(LoadOptions options, IEnumerable<TimeSpan> latencies)
    {
        var aggregator = new SummaryAggregator(options);
        foreach (var latency in latencies)
        {
            aggregator.Add(new RequestRecord(TimeSpan.Zero, TimeSpan.Zero, latency, latency, 200, 100, 4, 50, null, 0));
        }
        return aggregator.Complete(interrupted: false, null);
    }
}
