using System.Numerics;

namespace Tplab.Load.Histograms;

/// <summary>
/// An HDR histogram of non-negative whole values (tplab records microseconds): HdrHistogram's
/// log-linear bucket layout with 3 significant digits, so any value is kept within 0.1% of itself.
/// HdrHistogram.NET is not in our registry (docs/dependencies.md); this is a port of its core.
/// Not thread-safe: one aggregator owns one histogram.
/// </summary>
public sealed class LatencyHistogram
{
    /// <summary>Significant decimal digits kept for every value.</summary>
    public const int SignificantDigits = 3;

    // 2 * 10^3 rounded up to a power of two: each bucket spans 2048 sub-buckets, the top half of which is new.
    private const int SubBucketCountMagnitude = 11;
    private const int SubBucketHalfCountMagnitude = SubBucketCountMagnitude - 1;
    private const int SubBucketCount = 1 << SubBucketCountMagnitude;
    private const int SubBucketHalfCount = SubBucketCount / 2;
    private const long SubBucketMask = SubBucketCount - 1;
    private const int LeadingZeroCountBase = 64 - SubBucketHalfCountMagnitude - 1;

    private readonly long[] _counts;

    /// <summary>Creates a histogram that tracks values from 0 to <paramref name="highestTrackableValue"/>; larger ones are clamped.</summary>
    public LatencyHistogram(long highestTrackableValue = 100L * 3600 * 1_000_000)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(highestTrackableValue, 2L * SubBucketCount);
        HighestTrackableValue = highestTrackableValue;
        long smallestUntrackable = SubBucketCount;
        var buckets = 1;
        while (smallestUntrackable <= highestTrackableValue)
        {
            if (smallestUntrackable > long.MaxValue / 2)
            {
                buckets++;
                break;
            }
            smallestUntrackable <<= 1;
            buckets++;
        }
        BucketCount = buckets;
        _counts = new long[(buckets + 1) * SubBucketHalfCount];
    }

    /// <summary>The largest value recorded as itself.</summary>
    public long HighestTrackableValue { get; }

    /// <summary>Number of power-of-two buckets (printed in the .hgrm footer).</summary>
    public int BucketCount { get; }

    /// <summary>Sub-buckets per bucket (printed in the .hgrm footer).</summary>
    public static int SubBuckets => SubBucketCount;

    /// <summary>How many values were recorded.</summary>
    public long TotalCount { get; private set; }

    /// <summary>Records one value (negative values count as 0, values above the range as the highest).</summary>
    public void Record(long value) => RecordCount(value, 1);

    /// <summary>Records <paramref name="count"/> occurrences of one value.</summary>
    public void RecordCount(long value, long count)
    {
        value = Math.Clamp(value, 0, HighestTrackableValue);
        _counts[CountsIndexOf(value)] += count;
        TotalCount += count;
    }

    /// <summary>Adds every count of <paramref name="other"/> (same layout) into this one.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        for (var i = 0; i < other._counts.Length && i < _counts.Length; i++)
        {
            _counts[i] += other._counts[i];
        }
        TotalCount += other.TotalCount;
    }

    /// <summary>Forgets every value (an interval histogram starting over).</summary>
    public void Clear()
    {
        Array.Clear(_counts);
        TotalCount = 0;
    }

    /// <summary>The largest index holding a count, or -1 when empty (where an encoding can stop).</summary>
    internal int LastNonZeroIndex()
    {
        for (var i = _counts.Length - 1; i >= 0; i--)
        {
            if (_counts[i] != 0)
            {
                return i;
            }
        }
        return -1;
    }

    /// <summary>
    /// Adds decoded counts of the same layout (<paramref name="counts"/> indexed as this histogram's); a
    /// <see cref="FormatException"/>, with nothing added, when a bucket or the total would pass <see cref="long.MaxValue"/>.
    /// </summary>
    internal void AddCounts(long[] counts)
    {
        long added = 0;
        for (var i = 0; i < counts.Length; i++)
        {
            if (counts[i] < 0 || counts[i] > long.MaxValue - added)
            {
                throw new FormatException("the counts add up past the largest count a histogram holds (2^63 - 1)");
            }
            added += counts[i];
        }
        // Every bucket is at most the total, so a total that fits keeps every bucket in range too.
        if (added > long.MaxValue - TotalCount)
        {
            throw new FormatException("the counts add up past the largest count a histogram holds (2^63 - 1)");
        }
        for (var i = 0; i < counts.Length; i++)
        {
            _counts[i] += counts[i];
        }
        TotalCount += added;
    }

    /// <summary>A copy that no longer changes when this one does.</summary>
    public LatencyHistogram Copy()
    {
        var copy = new LatencyHistogram(HighestTrackableValue);
        copy.Add(this);
        return copy;
    }

    /// <summary>
    /// The value at or below which <paramref name="percentile"/> percent of the values fall, HdrHistogram's rule:
    /// the highest value equivalent to the bucket where the cumulative count first reaches the rank (0 when empty).
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        if (TotalCount == 0)
        {
            return 0;
        }
        var requested = Math.Clamp(percentile, 0, 100);
        var countAtPercentile = Math.Max(1, (long)((requested / 100.0 * TotalCount) + 0.5));
        long total = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            total += _counts[i];
            if (total >= countAtPercentile)
            {
                var value = ValueFromIndex(i);
                return requested == 0 ? LowestEquivalentValue(value) : HighestEquivalentValue(value);
            }
        }
        return 0;
    }

    /// <summary>Mean of the recorded values, each taken at the middle of its bucket (HdrHistogram's getMean).</summary>
    public double Mean => TotalCount == 0 ? 0 : Sum(v => MedianEquivalentValue(v)) / TotalCount;

    /// <summary>Population standard deviation over bucket middles (HdrHistogram's getStdDeviation).</summary>
    public double StdDeviation
    {
        get
        {
            if (TotalCount == 0)
            {
                return 0;
            }
            var mean = Mean;
            var squares = Sum(v => Math.Pow(MedianEquivalentValue(v) - mean, 2));
            return Math.Sqrt(squares / TotalCount);
        }
    }

    /// <summary>The largest recorded value, as its bucket's highest equivalent (HdrHistogram's getMaxValue).</summary>
    public long MaxValue
    {
        get
        {
            for (var i = _counts.Length - 1; i >= 0; i--)
            {
                if (_counts[i] != 0)
                {
                    return HighestEquivalentValue(ValueFromIndex(i));
                }
            }
            return 0;
        }
    }

    internal int CountsLength => _counts.Length;

    internal long CountAt(int index) => _counts[index];

    internal static long ValueFromIndex(int index)
    {
        var bucketIndex = (index >> SubBucketHalfCountMagnitude) - 1;
        var subBucketIndex = (index & (SubBucketHalfCount - 1)) + SubBucketHalfCount;
        if (bucketIndex < 0)
        {
            subBucketIndex -= SubBucketHalfCount;
            bucketIndex = 0;
        }
        return (long)subBucketIndex << bucketIndex;
    }

    internal static long LowestEquivalentValue(long value)
    {
        var bucket = BucketIndexOf(value);
        return SubBucketIndexOf(value, bucket) << bucket;
    }

    internal static long HighestEquivalentValue(long value) => LowestEquivalentValue(value) + SizeOfEquivalentRange(value) - 1;

    internal static long MedianEquivalentValue(long value) => LowestEquivalentValue(value) + (SizeOfEquivalentRange(value) >> 1);

    private static long SizeOfEquivalentRange(long value)
    {
        var bucket = BucketIndexOf(value);
        var subBucket = SubBucketIndexOf(value, bucket);
        return 1L << (subBucket >= SubBucketCount ? bucket + 1 : bucket);
    }

    private static int BucketIndexOf(long value) => LeadingZeroCountBase - BitOperations.LeadingZeroCount((ulong)(value | SubBucketMask));

    private static long SubBucketIndexOf(long value, int bucketIndex) => value >> bucketIndex;

    private static int CountsIndexOf(long value)
    {
        var bucket = BucketIndexOf(value);
        var subBucket = (int)SubBucketIndexOf(value, bucket);
        return ((bucket + 1) << SubBucketHalfCountMagnitude) + (subBucket - SubBucketHalfCount);
    }

    private double Sum(Func<long, double> weight)
    {
        double sum = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            if (_counts[i] != 0)
            {
                sum += weight(ValueFromIndex(i)) * _counts[i];
            }
        }
        return sum;
    }
}
