using System.Diagnostics;
using Tplab.Runtime;
using Tplab.Watch.Sampling;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>Threads held by lock waits, from ContentionStart/Stop pairs: thread-time waited in an interval ÷ the interval.</summary>
[ParallelSafe]
public sealed class LockWaitsTests
{
    private static readonly long Second = Stopwatch.Frequency;

    [Fact]
    public void Read_NoContentionEvent_IsNull()
    {
        var waits = new LockWaits(0);

        Assert.Null(waits.Read(Second));
    }

    [Fact]
    public void Read_TwoThreadsWaitingHalfTheInterval_IsOneThreadOnAverage()
    {
        var waits = new LockWaits(0);
        waits.Add(new ContentionEvent(Second / 4, 10, Started: true));
        waits.Add(new ContentionEvent(Second * 3 / 4, 10, Started: false));
        waits.Add(new ContentionEvent(Second / 2, 11, Started: true));

        var (average, now) = waits.Read(Second)!.Value;

        Assert.Equal(1.0, average, 3); // thread 10: 0.5 s closed; thread 11: 0.5 s still open at the reading
        Assert.Equal(1, now);
    }

    [Fact]
    public void Read_AWaitSpanningTwoReadings_IsSplitBetweenThem()
    {
        var waits = new LockWaits(0);
        waits.Add(new ContentionEvent(Second / 2, 7, Started: true));
        Assert.Equal(0.5, waits.Read(Second)!.Value.Average, 3);

        waits.Add(new ContentionEvent(Second * 3 / 2, 7, Started: false));
        var second = waits.Read(Second * 2)!.Value;

        Assert.Equal(0.5, second.Average, 3);
        Assert.Equal(0, second.Now);
    }

    [Fact]
    public void Add_StopWithoutStart_IsIgnored()
    {
        var waits = new LockWaits(0);
        waits.Add(new ContentionEvent(Second / 2, 3, Started: false));

        Assert.Equal(0, waits.Read(Second)!.Value.Average);
    }
}
