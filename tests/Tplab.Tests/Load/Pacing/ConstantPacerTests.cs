using Tplab.Load.Pacing;
using Microsoft.Extensions.Time.Testing;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Pacing;

/// <summary>The pacer is a pure schedule: when each hit is due, catch-up after a stall, and where the schedule ends. No network.</summary>
[ParallelSafe]
public sealed class ConstantPacerTests
{
    [Theory]
    // rate/s, elapsed ms, hits sent, expected wait ms, expected stop
    // on schedule: the next hit waits for its slot
    [InlineData(100, 0, 0, 0, false)]
    [InlineData(100, 0, 1, 10, false)]
    [InlineData(100, 4, 1, 6, false)]
    [InlineData(100, 10, 1, 0, false)]
    [InlineData(1000, 2.5, 3, 0.5, false)]
    [InlineData(50, 0, 1, 20, false)]
    // behind after a stall: every overdue hit is "now" (catch-up burst), none is skipped
    [InlineData(100, 500, 1, 0, false)]
    [InlineData(100, 500, 49, 0, false)]
    [InlineData(100, 500, 50, 0, false)]
    [InlineData(100, 500, 51, 10, false)]
    // end of schedule: 1 s at 100/s is hits 0..99
    [InlineData(100, 990, 99, 0, false)]
    [InlineData(100, 995, 100, 0, true)]
    [InlineData(100, 5000, 100, 0, true)]
    public void Pace_Table(double rate, double elapsedMs, long hits, double waitMs, bool stop)
    {
        var pacer = new ConstantPacer(rate, TimeSpan.FromSeconds(1));
        var decision = pacer.Pace(TimeSpan.FromMilliseconds(elapsedMs), hits);
        Assert.Equal(stop, decision.Stop);
        Assert.Equal(waitMs, decision.Wait.TotalMilliseconds, precision: 6);
    }

    [Theory]
    // rate/s, duration s, hit limit, expected total hits
    [InlineData(50, 60, null, 3000)]
    [InlineData(50, 10, null, 500)]
    [InlineData(3, 1, null, 3)]
    [InlineData(1000, 10, 250L, 250)]
    [InlineData(7, 0.5, null, 4)]
    public void TotalHits_IsTheScheduleLength(double rate, double seconds, long? limit, long expected) =>
        Assert.Equal(expected, new ConstantPacer(rate, TimeSpan.FromSeconds(seconds), limit).TotalHits);

    [Fact]
    public void Schedule_DrivenByFakeTime_SendsOnSlotsThenCatchesUpAfterAStall()
    {
        var time = new FakeTimeProvider();
        var start = time.GetTimestamp();
        var pacer = new ConstantPacer(100, TimeSpan.FromMilliseconds(200));
        var sentAt = new List<double>();
        long hits = 0;
        while (true)
        {
            var elapsed = time.GetElapsedTime(start);
            var decision = pacer.Pace(elapsed, hits);
            if (decision.Stop)
            {
                break;
            }
            if (decision.Wait > TimeSpan.Zero)
            {
                time.Advance(decision.Wait);
                continue;
            }
            sentAt.Add(elapsed.TotalMilliseconds);
            hits++;
            // The sender stalls for 55 ms after the fifth send (a GC pause, a blocked thread).
            if (hits == 5)
            {
                time.Advance(TimeSpan.FromMilliseconds(55));
            }
        }
        Assert.Equal(20, sentAt.Count);
        Assert.Equal([0, 10, 20, 30, 40], sentAt.Take(5));
        // Hits 5..9 were due at 50..90 ms: all leave at once at 95 ms, then the schedule resumes at 100 ms.
        Assert.Equal([95, 95, 95, 95, 95, 100, 110], sentAt.Skip(5).Take(7));
        Assert.Equal(190, sentAt[^1]);
    }

    [Fact]
    public void ScheduledAt_IsHitOverRate() =>
        Assert.Equal(TimeSpan.FromMilliseconds(2500), new ConstantPacer(2, null).ScheduledAt(5));
}
