using Tplab.Load;
using Tplab.Load.Pacing;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Pacing;

/// <summary>Ramps and steps as pure schedules: when each hit is due and how many the schedule holds. No network.</summary>
[ParallelSafe]
public sealed class StagedPacerTests
{
    [Theory]
    // A ramp from 0 to 100/s over 1 s plans 50 hits; hit k is due when the area under the rate reaches k: t = sqrt(2k/100).
    [InlineData(0, 0)]
    [InlineData(8, 400)]
    [InlineData(18, 600)]
    [InlineData(32, 800)]
    public void LinearRamp_HitDueWhereThePlannedCountReachesIt(long hit, double expectedMs)
    {
        var pacer = new StagedPacer(0, [new RateStage(TimeSpan.FromSeconds(1), 100)]);
        Assert.Equal(50, pacer.TotalHits);
        Assert.Equal(expectedMs, pacer.ScheduledAt(hit).TotalMilliseconds, 3);
    }

    [Fact]
    public void Steps_HoldThenJump_EachStepAtItsOwnRate()
    {
        // 100/s for 1 s, then at once 200/s for 1 s: 100 + 200 hits.
        var pacer = new StagedPacer(100, [new RateStage(TimeSpan.FromSeconds(1), 100), new RateStage(TimeSpan.Zero, 200), new RateStage(TimeSpan.FromSeconds(1), 200)]);
        Assert.Equal(300, pacer.TotalHits);
        Assert.Equal(TimeSpan.FromMilliseconds(990), pacer.ScheduledAt(99));
        Assert.Equal(TimeSpan.FromSeconds(1), pacer.ScheduledAt(100));
        Assert.Equal(TimeSpan.FromMilliseconds(1005), pacer.ScheduledAt(101));
        Assert.Equal(TimeSpan.FromMilliseconds(1995), pacer.ScheduledAt(299));
        Assert.True(pacer.Pace(TimeSpan.FromSeconds(3), 300).Stop);
        Assert.Equal(TimeSpan.FromMilliseconds(5), pacer.Pace(TimeSpan.FromSeconds(1), 101).Wait);
    }

    [Fact]
    public void Schedule_IsMonotonic_AndAPauseSendsNothing()
    {
        var pacer = new StagedPacer(50, [new RateStage(TimeSpan.FromSeconds(2), 0), new RateStage(TimeSpan.FromSeconds(1), 0), new RateStage(TimeSpan.FromSeconds(1), 80)]);
        // 50 hits in the ramp down, none in the pause, 40 in the ramp up.
        Assert.Equal(90, pacer.TotalHits);
        var times = Enumerable.Range(0, 90).Select(k => pacer.ScheduledAt(k)).ToArray();
        Assert.All(times.Zip(times.Skip(1)), p => Assert.True(p.Second >= p.First));
        Assert.DoesNotContain(times, t => t > TimeSpan.FromSeconds(2.001) && t < TimeSpan.FromSeconds(3));
    }

    [Theory]
    [InlineData("30s:500", 30, 500)]
    [InlineData("1m:0", 60, 0)]
    [InlineData("0s:200", 0, 200)]
    public void Stage_Parses(string text, double seconds, double rate) =>
        Assert.Equal(new RateStage(TimeSpan.FromSeconds(seconds), rate), RateStage.Parse(text, "--stage"));

    [Fact]
    public void StagesWithDuration_Refused()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1/"), Stages = [new RateStage(TimeSpan.FromSeconds(1), 10)], Duration = TimeSpan.FromSeconds(1) };
        Assert.Throws<Tplab.Common.TplabException>(() => options.Validate());
    }
}
