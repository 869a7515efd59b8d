using System.Globalization;

namespace Tplab.Watch.Verdicts;

/// <summary>
/// The verdict of a whole watch from its samples: starving if it ended starving; recovering if it starved earlier
/// and no longer does; healthy if no sample was starving. The evidence says when and for how long.
/// </summary>
public static class TimelineVerdict
{
    /// <summary>Judges a whole watch.</summary>
    public static VerdictResult Judge(IReadOnlyList<ThreadPoolSample> samples, IReadOnlyList<ThreadPoolInjection> injections, TimeSpan interval)
    {
        if (samples.Count == 0)
        {
            return new(PoolVerdict.Healthy, "no sample taken");
        }
        var starving = samples.Where(s => s.Verdict == PoolVerdict.Starving).ToList();
        var starvationInjections = injections.Count(i => i.Reason == InjectionReason.Starvation);
        var cooperative = injections.Count(i => i.Reason == InjectionReason.CooperativeBlocking);
        var injected = $"{N(starvationInjections)} starvation and {N(cooperative)} cooperative-blocking injections";
        var threads = $"threads {N(samples[0].ThreadCount)} → {N(samples.Max(s => s.ThreadCount))}";
        var queue = $"queue peak {N(samples.Max(s => s.QueueLength))}";
        if (starving.Count == 0)
        {
            return new(PoolVerdict.Healthy, string.Join(", ", "no starving sample", injected, threads, queue));
        }
        var starvedFor = $"starving in {N(starving.Count)} of {N(samples.Count)} samples ({S(starving.Count * interval.TotalSeconds)})";
        var since = $"first at {S(starving[0].Offset.TotalSeconds)}";
        var last = samples[^1];
        return last.Verdict == PoolVerdict.Starving
            ? new(PoolVerdict.Starving, string.Join(", ", starvedFor, since, "still starving at the end", injected, threads, queue))
            : new(PoolVerdict.Recovering, string.Join(", ", starvedFor, since, $"last at {S(starving[^1].Offset.TotalSeconds)}, {last.Verdict.ToWord()} at the end", injected, threads, queue));
    }

    private static string N(long n) => n.ToString(CultureInfo.InvariantCulture);

    private static string S(double seconds) => seconds.ToString("0.0", CultureInfo.InvariantCulture) + " s";
}
