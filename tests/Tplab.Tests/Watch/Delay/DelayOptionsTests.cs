using Tplab.Common;
using Tplab.Watch.Delay;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Delay;

/// <summary>How sampled windows hold the event budget, and the estimate beside the measured delay.</summary>
[ParallelSafe]
public sealed class DelayOptionsTests
{
    [Theory]
    // events in a 1 s window, gap after it (s)
    [InlineData(0, 0)]          // an idle pool: stay on
    [InlineData(10_000, 0)]     // at the budget: stay on
    [InlineData(20_000, 1)]     // twice the budget: off as long as on
    [InlineData(50_000, 4)]
    [InlineData(1_000_000, 9)]  // at most 9 s off
    public void GapAfter_Sampled_HoldsTheBudget(long events, double gapSeconds) =>
        Assert.Equal(gapSeconds, new DelayOptions().GapAfter(events, TimeSpan.FromSeconds(1)).TotalSeconds, 6);

    [Fact]
    public void GapAfter_Continuous_NeverPauses() =>
        Assert.Equal(TimeSpan.Zero, new DelayOptions { Mode = DelayMode.Continuous }.GapAfter(1_000_000, TimeSpan.FromSeconds(1)));

    [Theory]
    [InlineData("sampled", DelayMode.Sampled)]
    [InlineData("continuous", DelayMode.Continuous)]
    [InlineData("off", DelayMode.Off)]
    public void Parse_KnownModes(string text, DelayMode mode) => Assert.Equal(mode, DelayOptions.Parse(text).Mode);

    [Fact]
    public void Parse_Unknown_IsAUsageError() =>
        Assert.Equal(ExitCodes.Usage, Assert.Throws<TplabException>(() => DelayOptions.Parse("always")).ExitCode);

    [Theory]
    // queue, completed/s, estimate ms (null: unbounded)
    [InlineData(0, 0, 0.0)]
    [InlineData(10, 100, 100.0)]
    [InlineData(94, 2.5, 37600.0)]
    [InlineData(5, 0, null)]
    public void Estimate_QueueOverRate(long queue, double rate, double? ms) => Assert.Equal(ms, DelayEstimate.Milliseconds(queue, rate));
}
