namespace Tplab.Load.Pacing;

/// <summary>One stage of an open-loop schedule (k6's ramping-arrival-rate): move linearly to <see cref="Rate"/> over <see cref="Duration"/>.</summary>
public readonly record struct RateStage(TimeSpan Duration, double Rate)
{
    /// <summary>Parses "30s:500" (DURATION:RATE); a usage error naming <paramref name="option"/> otherwise.</summary>
    public static RateStage Parse(string text, string option)
    {
        ArgumentNullException.ThrowIfNull(text);
        var colon = text.LastIndexOf(':');
        if (colon <= 0 || !double.TryParse(text[(colon + 1)..], System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var rate))
        {
            throw Common.TplabException.Usage($"{option} must be DURATION:RATE (e.g. 30s:500), got '{text}'");
        }
        return new RateStage(Common.DurationText.Parse(text[..colon], option), rate);
    }

    /// <summary>"30s:500" as the CLI writes it.</summary>
    public override string ToString() => $"{Common.DurationText.Format(Duration)}:{Rate.ToString(System.Globalization.CultureInfo.InvariantCulture)}";
}

/// <summary>
/// A rate that changes over time: piecewise linear from a start rate through each stage's target (a ramp is one
/// stage, steps are stages of zero length followed by holds, as in k6's stages). Hit k is due when the planned count
/// of hits, the integral of the rate, reaches k (hit 0 at the start once the rate is above zero), so a ramp's hits
/// thicken smoothly rather than in jumps. Pure: no clock, tested with tables.
/// </summary>
public sealed class StagedPacer : IPacer
{
    private readonly Segment[] _segments;
    private readonly long _hitLimit;

    /// <summary>A schedule starting at <paramref name="startRate"/> per second through <paramref name="stages"/>, at most <paramref name="maxHits"/> hits.</summary>
    public StagedPacer(double startRate, IReadOnlyList<RateStage> stages, long? maxHits = null)
    {
        ArgumentNullException.ThrowIfNull(stages);
        var segments = new List<Segment>();
        double rate = startRate, planned = 0;
        var at = TimeSpan.Zero;
        foreach (var stage in stages)
        {
            var seconds = stage.Duration.TotalSeconds;
            var hits = (rate + stage.Rate) / 2 * seconds;
            segments.Add(new Segment(at, seconds, rate, seconds > 0 ? (stage.Rate - rate) / seconds : 0, planned, planned + hits));
            planned += hits;
            at += stage.Duration;
            rate = stage.Rate;
        }
        _segments = [.. segments];
        Length = at;
        PlannedHits = planned;
        // Hits whose due time falls inside the schedule: k from 0 while k < planned (the constant pacer's rule).
        _hitLimit = Math.Min((long)Math.Ceiling(planned - 1e-9), maxHits ?? long.MaxValue);
    }

    /// <summary>The schedule's length.</summary>
    public TimeSpan Length { get; }

    /// <summary>Hits the rate curve plans over the whole schedule (its integral).</summary>
    public double PlannedHits { get; }

    /// <summary>How many hits the schedule sends.</summary>
    public long TotalHits => _hitLimit;

    /// <inheritdoc />
    public PaceDecision Pace(TimeSpan elapsed, long hits) => PaceDecision.Next(elapsed, hits, _hitLimit, this);

    /// <inheritdoc />
    public TimeSpan ScheduledAt(long hit)
    {
        foreach (var s in _segments)
        {
            if (hit >= s.HitsAtEnd && s != _segments[^1])
            {
                continue;
            }
            // Solve planned(τ) = r0·τ + a·τ²/2 = hit − hits before this segment.
            var need = hit - s.HitsAtStart;
            double tau;
            if (Math.Abs(s.Slope) < 1e-12)
            {
                tau = s.StartRate > 0 ? need / s.StartRate : 0;
            }
            else
            {
                var disc = (s.StartRate * s.StartRate) + (2 * s.Slope * need);
                tau = (-s.StartRate + Math.Sqrt(Math.Max(0, disc))) / s.Slope;
            }
            return s.Start + TimeSpan.FromTicks((long)Math.Round(Math.Clamp(tau, 0, s.Seconds) * TimeSpan.TicksPerSecond));
        }
        return Length;
    }

    private sealed record Segment(TimeSpan Start, double Seconds, double StartRate, double Slope, double HitsAtStart, double HitsAtEnd);
}
