namespace Tplab.Load.Pacing;

/// <summary>
/// A constant rate: hit k leaves at k / rate after the start (hit 0 at once), until the duration
/// or the hit limit ends the schedule. When behind (the sender stalled), it answers "now" for every
/// overdue hit, so the missed hits leave as a catch-up burst and the schedule is kept, as vegeta does.
/// </summary>
public sealed class ConstantPacer : IPacer
{
    private readonly double _ticksPerHit;
    private readonly long _hitLimit;

    /// <summary>A pacer of <paramref name="ratePerSecond"/> hits a second for <paramref name="duration"/> (null: unbounded), at most <paramref name="maxHits"/> hits.</summary>
    public ConstantPacer(double ratePerSecond, TimeSpan? duration, long? maxHits = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        RatePerSecond = ratePerSecond;
        _ticksPerHit = TimeSpan.TicksPerSecond / ratePerSecond;
        // Hits whose scheduled time falls inside [0, duration): 10 s at 50/s is exactly 500 hits.
        var byDuration = duration is { } d ? (long)Math.Ceiling((d.Ticks / _ticksPerHit) - 1e-9) : long.MaxValue;
        _hitLimit = Math.Min(byDuration, maxHits ?? long.MaxValue);
    }

    /// <summary>The rate asked for.</summary>
    public double RatePerSecond { get; }

    /// <summary>How many hits the whole schedule holds.</summary>
    public long TotalHits => _hitLimit;

    /// <inheritdoc />
    public PaceDecision Pace(TimeSpan elapsed, long hits) => PaceDecision.Next(elapsed, hits, _hitLimit, this);

    /// <inheritdoc />
    public TimeSpan ScheduledAt(long hit) => TimeSpan.FromTicks((long)Math.Round(hit * _ticksPerHit));
}
