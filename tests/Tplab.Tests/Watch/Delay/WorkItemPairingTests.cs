using Tplab.Runtime;
using Tplab.Watch.Delay;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Delay;

/// <summary>Pairing enqueues with dequeues: the waits measured, and every event that cannot pair counted, never dropped.</summary>
[ParallelSafe]
public sealed class WorkItemPairingTests
{
    public static TheoryData<string, WorkItemEvent[], long, long, int> Cases => new()
    {
        // name, events (time ms, id, enqueued), waits measured, unpaired, still queued
        { "one item", [E(0, 1, true), E(5, 1, false)], 1, 0, 0 },
        { "two interleaved", [E(0, 1, true), E(1, 2, true), E(3, 2, false), E(9, 1, false)], 2, 0, 0 },
        { "queued before the window", [E(4, 7, false)], 0, 0, 0 },
        { "dequeue read before its enqueue", [E(5, 3, false), E(2, 3, true)], 1, 0, 0 },
        { "same id queued twice", [E(0, 1, true), E(2, 1, true), E(3, 1, false)], 1, 1, 0 },
        { "still queued", [E(0, 1, true), E(1, 2, true), E(2, 1, false)], 1, 0, 1 },
        { "reused id after its dequeue", [E(0, 1, true), E(1, 1, false), E(2, 1, true), E(6, 1, false)], 2, 0, 0 },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Take_Events_PairsAndCounts(string name, WorkItemEvent[] events, long waits, long unpaired, int queued)
    {
        var pairing = new WorkItemPairing();
        foreach (var e in events)
        {
            pairing.Add(e);
        }

        var interval = pairing.Take();

        Assert.True(waits == interval.Waits.Count, $"{name}: {interval.Waits.Count} waits");
        Assert.True(unpaired == interval.Unpaired, $"{name}: {interval.Unpaired} unpaired");
        Assert.True(queued == interval.Queued, $"{name}: {interval.Queued} queued");
    }

    [Fact]
    public void Take_DequeueWithNoEnqueueForASecond_IsCountedUnpaired()
    {
        var pairing = new WorkItemPairing();
        pairing.Add(E(0, 9, false));
        pairing.Add(E(1500, 10, true));

        Assert.Equal(1, pairing.Take().Unpaired);
    }

    [Fact]
    public void CloseWindow_ItemsStillQueued_AreUnpairedNotLost()
    {
        var pairing = new WorkItemPairing();
        pairing.Add(E(0, 1, true));
        pairing.Add(E(10, 2, true));
        pairing.Add(E(20, 3, false));

        pairing.CloseWindow();
        var interval = pairing.Take();

        Assert.Equal(3, interval.Unpaired);
        Assert.Equal(0, interval.Queued);
    }

    [Fact]
    public void Take_OldestQueued_IsTheLongestWaitInProgress()
    {
        var pairing = new WorkItemPairing();
        pairing.Add(E(100, 1, true));
        pairing.Add(E(900, 2, true));
        pairing.Add(E(2100, 3, true));

        Assert.Equal(2000, pairing.Take().OldestQueuedMs, 3);
    }

    [Fact]
    public void Take_TheWaits_AreTheTimesBetween()
    {
        var pairing = new WorkItemPairing();
        pairing.Add(E(0, 1, true));
        pairing.Add(E(0, 2, true));
        pairing.Add(E(2, 1, false));
        pairing.Add(E(1000, 2, false));

        var waits = pairing.Take().Waits;

        Assert.Equal(1002, waits.SumMs, 6);
        Assert.Equal(1000, waits.MaxMs, 6);
    }

    private static WorkItemEvent E(double ms, long id, bool enqueued) => new(ms, id, enqueued);
}
