using System.Globalization;

namespace Tplab.Lab.Running;

/// <summary>Where a lesson's ratio (first scenario's mean over the second's) falls.</summary>
public enum RatioBand
{
    /// <summary>Below 1/1.5: the first is clearly faster.</summary>
    Faster,

    /// <summary>Between 1/1.5 and 1.5: no clear difference.</summary>
    Similar,

    /// <summary>1.5 or more: the first is clearly slower.</summary>
    Slower,
}

/// <summary>How a lesson of this run compares with the seed's (docs/lab.md, "Same shape as the seed").</summary>
public enum ShapeMatch
{
    /// <summary>Every value on each side falls in one band, and it is the same band.</summary>
    Same,

    /// <summary>Every value on each side falls in one band, and the bands differ.</summary>
    Different,

    /// <summary>A side's repeats (the seed's published runs, or this run's --repeat) fall in more than one band.</summary>
    Unsettled,

    /// <summary>The seed printed no figure for one of the two scenarios.</summary>
    NoSeed,

    /// <summary>One of this run's two scenarios did not complete (interrupted, deadline, failed): its mean covers only part of the load.</summary>
    NotCompared,
}

/// <summary>The lowest and highest ratio a side's values allow, and the ratio of their averages.</summary>
/// <param name="Central">Average of the first scenario's means over the average of the second's.</param>
/// <param name="Low">Lowest first-scenario mean over the highest second-scenario mean.</param>
/// <param name="High">Highest first-scenario mean over the lowest second-scenario mean.</param>
public sealed record RatioSpread(double Central, double Low, double High)
{
    /// <summary>True when the side had one value per scenario.</summary>
    public bool IsSingle => Low == High;

    /// <summary>
    /// The spread of <paramref name="firsts"/> over <paramref name="seconds"/>; null when either is empty or a
    /// second value is not above zero. Repeats are not paired (the seed's runs are unlabelled, and run i of one
    /// scenario has nothing to do with run i of another), so the extremes are the widest the values allow.
    /// </summary>
    public static RatioSpread? Of(IReadOnlyList<double> firsts, IReadOnlyList<double> seconds)
    {
        ArgumentNullException.ThrowIfNull(firsts);
        ArgumentNullException.ThrowIfNull(seconds);
        if (firsts.Count == 0 || seconds.Count == 0 || seconds.Min() <= 0 || firsts.Any(v => !double.IsFinite(v)) || seconds.Any(v => !double.IsFinite(v)))
        {
            return null;
        }
        return new RatioSpread(firsts.Average() / seconds.Average(), firsts.Min() / seconds.Max(), firsts.Max() / seconds.Min());
    }

    /// <summary>"2.1×", or "1.7–2.4×" when the values spread.</summary>
    public override string ToString() => IsSingle
        ? string.Create(CultureInfo.InvariantCulture, $"{Central:0.0}×")
        : string.Create(CultureInfo.InvariantCulture, $"{Low:0.0}–{High:0.0}×");
}

/// <summary>
/// The rule that says whether a lesson has "the same shape as the seed": each ratio is put in a band (clearly
/// slower at 1.5× or more, clearly faster at 1/1.5 or less, else similar); the shape is the same when every value of
/// both sides falls in one band and it is the same one. 1.5 because seed 002's five runs of one unchanged app already
/// differ by up to 1.38× (Thread.Sleep, 5,537–7,660 ms): a smaller difference can be run-to-run spread.
/// </summary>
public static class ShapeRule
{
    /// <summary>A ratio at or above this is "clearly slower"; at or below its inverse, "clearly faster".</summary>
    public const double Threshold = 1.5;

    /// <summary>The band of one ratio.</summary>
    public static RatioBand Band(double ratio) =>
        ratio >= Threshold ? RatioBand.Slower : ratio <= 1 / Threshold ? RatioBand.Faster : RatioBand.Similar;

    /// <summary>The one band every value of <paramref name="spread"/> falls in, or null when it straddles a boundary.</summary>
    public static RatioBand? SettledBand(RatioSpread spread)
    {
        ArgumentNullException.ThrowIfNull(spread);
        var low = Band(spread.Low);
        return low == Band(spread.High) ? low : null;
    }

    /// <summary>Compares this run's spread with the seed's; <paramref name="incomplete"/> names a scenario that did not complete.</summary>
    public static ShapeMatch Compare(RatioSpread? ours, RatioSpread? seed, string? incomplete)
    {
        if (incomplete is not null || ours is null)
        {
            return ShapeMatch.NotCompared;
        }
        if (seed is null)
        {
            return ShapeMatch.NoSeed;
        }
        return (SettledBand(ours), SettledBand(seed)) switch
        {
            ({ } a, { } b) => a == b ? ShapeMatch.Same : ShapeMatch.Different,
            _ => ShapeMatch.Unsettled,
        };
    }

    /// <summary>The band in words, for the notes.</summary>
    public static string Words(RatioBand band) => band switch
    {
        RatioBand.Slower => "the first clearly slower",
        RatioBand.Faster => "the first clearly faster",
        _ => "no clear difference",
    };
}
