using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Summary;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Summary;

/// <summary>The split of each request into waited for a thread, handler and rest, as the summary aggregates it.</summary>
[ParallelSafe]
public sealed class HandlerTimingSplitTests
{
    private static RequestRecord Record(double sendMs, double endMs, double? handlerStartMs, double? handlerEndMs) => new(
        TimeSpan.FromMilliseconds(sendMs), TimeSpan.FromMilliseconds(sendMs), TimeSpan.FromMilliseconds(endMs), TimeSpan.FromMilliseconds(endMs),
        200, 100, 10, 50, null, 0,
        HandlerStart: handlerStartMs is double s ? TimeSpan.FromMilliseconds(s) : null,
        HandlerEnd: handlerEndMs is double e ? TimeSpan.FromMilliseconds(e) : null);

    private static HandlerTiming? Split(params RequestRecord[] records)
    {
        var aggregator = new SummaryAggregator(new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Concurrency = 1, Requests = records.Length });
        foreach (var r in records)
        {
            aggregator.Add(r);
        }
        return aggregator.Complete(interrupted: false, serverSoftware: null).HandlerTiming;
    }

    [Fact]
    public void NoStamp_NoSplit() => Assert.Null(Split(Record(0, 1000, null, null)));

    [Theory]
    // send, end, handler start, handler end → waited, handler, rest
    [InlineData(0, 14000, 13000, 14000, 13000, 1000, 0)]   // seed 001's picture: 13 s waiting, 1 s handler
    [InlineData(0, 1000, 2, 999, 2, 997, 1)]
    [InlineData(10, 1010, 9.99, 1009, 0, 999.01, 0.99)]        // the server's clock a few µs behind: never a negative wait
    [InlineData(0, 1000, 5, 1200, 5, 995, 0)]              // a handler "longer" than the request: kept within the latency
    public void Split_PartsAreNeverNegative_AndSumToTheLatency(double send, double end, double hs, double he, double waited, double handler, double rest)
    {
        var t = Split(Record(send, end, hs, he))!;

        Assert.Equal(1, t.Requests);
        Assert.Equal(waited, t.WaitedForThreadMs.Mean, 3);
        Assert.Equal(handler, t.HandlerMs.Mean, 3);
        Assert.Equal(rest, t.RestMs.Mean, 3);
        Assert.Equal(t.LatencyMs.Mean, t.WaitedForThreadMs.Mean + t.HandlerMs.Mean + t.RestMs.Mean, 6);
    }

    [Fact]
    public void Split_CoversOnlyStampedRequests()
    {
        var t = Split(Record(0, 3000, 2000, 3000), Record(0, 500, null, null))!;
        Assert.Equal(1, t.Requests);
        Assert.Equal(3000, t.LatencyMs.Mean, 3);
    }
}
