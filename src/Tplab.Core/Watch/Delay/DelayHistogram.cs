namespace Tplab.Watch.Delay;

/// <summary>
/// Waits in the pool's queue, counted in logarithmic buckets 10% wide from 1 µs to about 100 s, with each bucket's
/// sum kept too: quantiles come within 10%, and the total (and any exporter's coarser buckets, fed one mean per
/// bucket) stays exact. Not thread-safe: its owner locks.
/// </summary>
public sealed class DelayHistogram
{
    /// <summary>Buckets: index 0 holds waits under 1 µs, the last one everything from about 100 s on.</summary>
    public const int BucketCount = 195;

    private const double FirstBoundMs = 0.001;
    private static readonly double Growth = Math.Log(1.1);
    private readonly long[] _counts = new long[BucketCount];
    private readonly double[] _sums = new double[BucketCount];

    /// <summary>Waits added.</summary>
    public long Count { get; private set; }

    /// <summary>Their total, in milliseconds.</summary>
    public double SumMs { get; private set; }

    /// <summary>The longest, in milliseconds; 0 when empty.</summary>
    public double MaxMs { get; private set; }

    /// <summary>Adds one wait of <paramref name="ms"/> milliseconds (a negative one, clocks a hair apart, counts as 0).</summary>
    public void Add(double ms)
    {
        ms = Math.Max(0, ms);
        var i = Index(ms);
        _counts[i]++;
        _sums[i] += ms;
        Count++;
        SumMs += ms;
        MaxMs = Math.Max(MaxMs, ms);
    }

    /// <summary>The bucket a wait of <paramref name="ms"/> falls in.</summary>
    public static int Index(double ms) =>
        ms < FirstBoundMs ? 0 : Math.Min(BucketCount - 1, 1 + (int)(Math.Log(ms / FirstBoundMs) / Growth));

    /// <summary>The immutable distribution so far.</summary>
    public DelayDistribution Snapshot() => new([.. _counts], [.. _sums], Count, SumMs, MaxMs);

    /// <summary>Empties it.</summary>
    public void Clear()
    {
        Array.Clear(_counts);
        Array.Clear(_sums);
        Count = 0;
        SumMs = 0;
        MaxMs = 0;
    }
}

/// <summary>The waits of one stretch of time, bucketed as <see cref="DelayHistogram"/> does; immutable.</summary>
/// <param name="Counts">Waits per bucket.</param>
/// <param name="SumsMs">The waits' total per bucket, in milliseconds.</param>
public sealed record DelayDistribution(IReadOnlyList<long> Counts, IReadOnlyList<double> SumsMs, long Count, double SumMs, double MaxMs)
{
    /// <summary>No waits.</summary>
    public static DelayDistribution Empty { get; } = new DelayHistogram().Snapshot();

    /// <summary>The mean wait in milliseconds; 0 when empty.</summary>
    public double MeanMs => Count == 0 ? 0 : SumMs / Count;

    /// <summary>
    /// The wait below which a fraction <paramref name="q"/> of the waits fall, within a bucket's width: the mean of
    /// the bucket the quantile lands in (never above the maximum).
    /// </summary>
    public double QuantileMs(double q)
    {
        if (Count == 0)
        {
            return 0;
        }
        var rank = Math.Max(1, (long)Math.Ceiling(q * Count));
        long seen = 0;
        for (var i = 0; i < Counts.Count; i++)
        {
            seen += Counts[i];
            if (seen >= rank)
            {
                return Math.Min(MaxMs, SumsMs[i] / Counts[i]);
            }
        }
        return MaxMs;
    }

    /// <summary>This distribution and <paramref name="other"/> together.</summary>
    public DelayDistribution Plus(DelayDistribution other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return new(
            [.. Counts.Zip(other.Counts, (a, b) => a + b)],
            [.. SumsMs.Zip(other.SumsMs, (a, b) => a + b)],
            Count + other.Count, SumMs + other.SumMs, Math.Max(MaxMs, other.MaxMs));
    }
}
