using HdrHistogram;

namespace Tplab.Load.Histograms;

/// <summary>
/// An HDR histogram of non-negative whole values (tplab records microseconds), 3 significant digits, so any value is
/// kept within 0.1% of itself: HdrHistogram.NET's <see cref="LongHistogram"/> behind the answers tplab's reports rely on
/// (docs/dependencies.md): values past the range are clamped, not thrown; an empty histogram answers 0, not an
/// exception or NaN. Not thread-safe: one aggregator owns one histogram.
/// </summary>
public sealed class LatencyHistogram
{
    /// <summary>Significant decimal digits kept for every value.</summary>
    public const int SignificantDigits = 3;

    private readonly LongHistogram _histogram;

    /// <summary>Creates a histogram that tracks values from 0 to <paramref name="highestTrackableValue"/>; larger ones are clamped.</summary>
    public LatencyHistogram(long highestTrackableValue = 100L * 3600 * 1_000_000)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(highestTrackableValue, 2L * 2048);
        _histogram = new LongHistogram(highestTrackableValue, SignificantDigits);
    }

    /// <summary>The largest value recorded as itself.</summary>
    public long HighestTrackableValue => _histogram.HighestTrackableValue;

    /// <summary>Number of power-of-two buckets (printed in the .hgrm footer).</summary>
    public int BucketCount => _histogram.BucketCount;

    /// <summary>Sub-buckets per bucket (printed in the .hgrm footer).</summary>
    public int SubBuckets => _histogram.SubBucketCount;

    /// <summary>How many values were recorded.</summary>
    public long TotalCount => _histogram.TotalCount;

    /// <summary>The library's histogram, for its encoder and iterators.</summary>
    internal HistogramBase Inner => _histogram;

    /// <summary>Length of the counts array: the indexes an encoding of this layout may use.</summary>
    internal int CountsLength => (BucketCount + 1) * (SubBuckets / 2);

    /// <summary>Records one value (negative values count as 0, values above the range as the highest).</summary>
    public void Record(long value) => _histogram.RecordValue(Math.Clamp(value, 0, HighestTrackableValue));

    /// <summary>Records <paramref name="count"/> occurrences of one value.</summary>
    public void RecordCount(long value, long count) => _histogram.RecordValueWithCount(Math.Clamp(value, 0, HighestTrackableValue), count);

    /// <summary>Adds every count of <paramref name="other"/> (same layout) into this one.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        _histogram.Add(other._histogram);
    }

    /// <summary>Forgets every value (an interval histogram starting over).</summary>
    public void Clear() => _histogram.Reset();

    /// <summary>A copy that no longer changes when this one does.</summary>
    public LatencyHistogram Copy()
    {
        var copy = new LatencyHistogram(HighestTrackableValue);
        copy.Add(this);
        return copy;
    }

    /// <summary>
    /// The value at or below which <paramref name="percentile"/> percent of the values fall, HdrHistogram's rule:
    /// the highest value equivalent to the bucket where the cumulative count first reaches the rank (0 when empty;
    /// at 0% the lowest value of the first bucket, as HdrHistogram's Java library answers).
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        if (TotalCount == 0)
        {
            return 0;
        }
        var requested = Math.Clamp(percentile, 0, 100);
        var value = _histogram.GetValueAtPercentile(requested);
        return requested == 0 ? _histogram.LowestEquivalentValue(value) : value;
    }

    /// <summary>Mean of the recorded values, each taken at the middle of its bucket (HdrHistogram's getMean).</summary>
    public double Mean => TotalCount == 0 ? 0 : _histogram.GetMean();

    /// <summary>Population standard deviation over bucket middles (HdrHistogram's getStdDeviation).</summary>
    public double StdDeviation => TotalCount == 0 ? 0 : _histogram.GetStdDeviation();

    /// <summary>The largest recorded value, as its bucket's highest equivalent (HdrHistogram's getMaxValue).</summary>
    public long MaxValue => TotalCount == 0 ? 0 : _histogram.GetMaxValue();

    /// <summary>
    /// Adds decoded counts of the same layout (each at a counts index of this histogram, below <see cref="CountsLength"/>);
    /// a <see cref="FormatException"/>, with nothing added, when the total would pass <see cref="long.MaxValue"/>.
    /// </summary>
    internal void AddCounts(IReadOnlyList<(int Index, long Count)> counts)
    {
        long added = 0;
        foreach (var (index, count) in counts)
        {
            if ((uint)index >= (uint)CountsLength)
            {
                throw new FormatException($"a count at index {index}, beyond the histogram's range ({CountsLength - 1})");
            }
            if (count < 0 || count > long.MaxValue - added)
            {
                throw new FormatException("the counts add up past the largest count a histogram holds (2^63 - 1)");
            }
            added += count;
        }
        // Every bucket is at most the total, so a total that fits keeps every bucket in range too.
        if (added > long.MaxValue - TotalCount)
        {
            throw new FormatException("the counts add up past the largest count a histogram holds (2^63 - 1)");
        }
        foreach (var (index, count) in counts)
        {
            _histogram.RecordValueWithCount(ValueFromIndex(index), count);
        }
    }

    // HdrHistogram's counts index to the lowest value it stands for (the library keeps this internal): index / 1024
    // is the power-of-two bucket past the first, index % 1024 the sub-bucket in its upper half.
    private static long ValueFromIndex(int index)
    {
        const int halfCountMagnitude = 10, halfCount = 1 << halfCountMagnitude;
        var bucket = (index >> halfCountMagnitude) - 1;
        var subBucket = (index & (halfCount - 1)) + halfCount;
        if (bucket < 0)
        {
            subBucket -= halfCount;
            bucket = 0;
        }
        return (long)subBucket << bucket;
    }
}
