namespace Tplab.Load.Histograms;

/// <summary>One step of a percentile distribution: the value reached, the percentile it stands at, and the count so far.</summary>
public readonly record struct PercentileStep(long Value, double Percentile, long TotalCount);

/// <summary>
/// HdrHistogram's percentile iterator (the rows of an .hgrm file): steps get finer as the percentile
/// approaches 100, <paramref name="ticksPerHalfDistance"/> steps per halving of the distance to 100%.
/// </summary>
public static class PercentileDistribution
{
    /// <summary>Walks the histogram as HdrHistogram's outputPercentileDistribution does.</summary>
    public static IReadOnlyList<PercentileStep> Steps(LatencyHistogram histogram, int ticksPerHalfDistance = 5)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        var steps = new List<PercentileStep>();
        var total = histogram.TotalCount;
        if (total == 0)
        {
            return steps;
        }
        var level = 0.0;
        long countToIndex = 0;
        var reachedLast = false;
        var index = 0;
        var fresh = true;
        while (true)
        {
            // hasNext: more counts ahead, or one last step at exactly 100%.
            if (countToIndex >= total)
            {
                if (reachedLast)
                {
                    break;
                }
                level = 100;
                reachedLast = true;
            }
            var found = false;
            while (index < histogram.CountsLength)
            {
                var countHere = histogram.CountAt(index);
                if (fresh)
                {
                    countToIndex += countHere;
                    fresh = false;
                }
                if (countHere != 0 && 100.0 * countToIndex / total >= level)
                {
                    var value = LatencyHistogram.HighestEquivalentValue(LatencyHistogram.ValueFromIndex(index));
                    steps.Add(new PercentileStep(value, level, countToIndex));
                    var ticks = ticksPerHalfDistance * Math.Pow(2, (long)Math.Log2(100.0 / (100.0 - level)) + 1);
                    level += 100.0 / ticks;
                    found = true;
                    break;
                }
                index++;
                fresh = true;
            }
            if (!found)
            {
                break;
            }
        }
        return steps;
    }
}
