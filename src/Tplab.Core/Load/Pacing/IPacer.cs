namespace Tplab.Load.Pacing;

/// <summary>
/// When to send (never how): a pure function of the time elapsed since the start and the hits sent so far,
/// like vegeta's Pacer. Implementations hold no clock, so they are tested with tables and no network.
/// </summary>
public interface IPacer
{
    /// <summary>How long to wait before the next hit; <c>Stop</c> when the schedule has ended.</summary>
    PaceDecision Pace(TimeSpan elapsed, long hits);

    /// <summary>When hit number <paramref name="hit"/> (0-based) should leave, counted from the start.</summary>
    TimeSpan ScheduledAt(long hit);
}

/// <summary>The pacer's answer: wait this long (zero: send now), or stop.</summary>
public readonly record struct PaceDecision(TimeSpan Wait, bool Stop)
{
    /// <summary>The schedule has ended.</summary>
    public static PaceDecision Done => new(TimeSpan.Zero, true);

    /// <summary>
    /// The answer of any schedule that sends <paramref name="totalHits"/> hits at <paramref name="pacer"/>'s times:
    /// done after the last, otherwise wait until the next hit's time (zero when it is already due).
    /// Takes the pacer, not a delegate, so the per-request path allocates nothing.
    /// </summary>
    public static PaceDecision Next(TimeSpan elapsed, long hits, long totalHits, IPacer pacer)
    {
        ArgumentNullException.ThrowIfNull(pacer);
        if (hits >= totalHits)
        {
            return Done;
        }
        var due = pacer.ScheduledAt(hits);
        return new PaceDecision(elapsed >= due ? TimeSpan.Zero : due - elapsed, false);
    }
}
