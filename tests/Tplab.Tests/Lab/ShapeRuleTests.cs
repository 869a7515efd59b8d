using Tplab.Lab.Running;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>The "same shape as the seed" rule of docs/lab.md, case by case.</summary>
[ParallelSafe]
public sealed class ShapeRuleTests
{
    [Theory]
    // the boundaries belong to the clear bands
    [InlineData(1.5, RatioBand.Slower)]
    [InlineData(1.4999, RatioBand.Similar)]
    [InlineData(1.0, RatioBand.Similar)]
    [InlineData(0.6667, RatioBand.Similar)]
    [InlineData(2.0 / 3.0, RatioBand.Faster)]
    [InlineData(0.2, RatioBand.Faster)]
    [InlineData(40, RatioBand.Slower)]
    public void Band_ThresholdsAtOneAndAHalfBothWays(double ratio, RatioBand expected) => Assert.Equal(expected, ShapeRule.Band(ratio));

    [Fact]
    public void Spread_OfRepeats_IsTheWidestTheValuesAllow()
    {
        // seed 002, Thread.Sleep vs await Task.Delay: five unlabelled runs each
        var s = RatioSpread.Of([7147, 5537, 6921, 7660, 7186], [3203, 3198, 3205, 3190, 3189])!;
        Assert.Equal(5537.0 / 3205, s.Low, 9);
        Assert.Equal(7660.0 / 3189, s.High, 9);
        Assert.Equal(6890.2 / 3197, s.Central, 9);
        Assert.False(s.IsSingle);
        Assert.Equal("1.7–2.4×", s.ToString());
    }

    [Theory]
    [InlineData(new double[0], new double[] { 1 })]
    [InlineData(new double[] { 1 }, new double[0])]
    [InlineData(new double[] { 1 }, new double[] { 0 })]
    [InlineData(new double[] { double.NaN }, new double[] { 1 })]
    public void Spread_WithoutUsableValues_IsNull(double[] firsts, double[] seconds) => Assert.Null(RatioSpread.Of(firsts, seconds));

    [Theory]
    // one value per side: the bands decide
    [InlineData(new double[] { 3000 }, new double[] { 1000 }, new double[] { 11975 }, new double[] { 1066 }, null, ShapeMatch.Same)]
    [InlineData(new double[] { 1100 }, new double[] { 1000 }, new double[] { 11975 }, new double[] { 1066 }, null, ShapeMatch.Different)]
    [InlineData(new double[] { 1100 }, new double[] { 1000 }, new double[] { 1000 }, new double[] { 1050 }, null, ShapeMatch.Same)]
    [InlineData(new double[] { 500 }, new double[] { 1000 }, new double[] { 1000 }, new double[] { 1050 }, null, ShapeMatch.Different)]
    // the old rule took seed 002's min/max midpoint: Task.Run(Sleep) vs Delay gave 1.6× ("slower"); its five runs span 0.96–2.2×
    [InlineData(new double[] { 3300 }, new double[] { 3100 }, new double[] { 4945, 6990, 3885, 3284, 3081 }, new double[] { 3203, 3198, 3205, 3190, 3189 }, null, ShapeMatch.Unsettled)]
    [InlineData(new double[] { 9000 }, new double[] { 3100 }, new double[] { 4945, 6990, 3885, 3284, 3081 }, new double[] { 3203, 3198, 3205, 3190, 3189 }, null, ShapeMatch.Unsettled)]
    // five runs that all agree settle it
    [InlineData(new double[] { 9000 }, new double[] { 3100 }, new double[] { 7147, 5537, 6921, 7660, 7186 }, new double[] { 3203, 3198, 3205, 3190, 3189 }, null, ShapeMatch.Same)]
    [InlineData(new double[] { 3400 }, new double[] { 3100 }, new double[] { 7147, 5537, 6921, 7660, 7186 }, new double[] { 3203, 3198, 3205, 3190, 3189 }, null, ShapeMatch.Different)]
    // this run's repeats: settled when every repeat agrees, unsettled when they straddle 1.5×
    [InlineData(new double[] { 4000, 4400 }, new double[] { 1000, 1100 }, new double[] { 4140 }, new double[] { 1230 }, null, ShapeMatch.Same)]
    [InlineData(new double[] { 1400, 2000 }, new double[] { 1000, 1010 }, new double[] { 4140 }, new double[] { 1230 }, null, ShapeMatch.Unsettled)]
    // no seed figure, or a scenario cut short
    [InlineData(new double[] { 3000 }, new double[] { 1000 }, new double[0], new double[] { 1066 }, null, ShapeMatch.NoSeed)]
    [InlineData(new double[] { 3000 }, new double[] { 1000 }, new double[] { 11975 }, new double[] { 1066 }, "sleep stopped at its deadline", ShapeMatch.NotCompared)]
    public void Compare_Table(double[] oursTop, double[] oursBottom, double[] seedTop, double[] seedBottom, string? incomplete, ShapeMatch expected) =>
        Assert.Equal(expected, ShapeRule.Compare(RatioSpread.Of(oursTop, oursBottom), RatioSpread.Of(seedTop, seedBottom), incomplete));
}
