using System.Globalization;

namespace Tplab.Watch.Verdicts;

/// <summary>
/// The verdict of a whole watch from its samples, read at its end: the trouble (starving, lock contention, CPU
/// saturated) of at least half the samples of the last <see cref="VerdictThresholds.QuietPeriod"/>, the most frequent
/// one there; else recovering if threads were held (starving or lock contention) earlier; else healthy. One calm
/// sample at the very end does not turn a starving watch into a recovered one. The evidence says when and for how long.
/// </summary>
public static class TimelineVerdict
{
    /// <summary>Judges a whole watch.</summary>
    public static VerdictResult Judge(IReadOnlyList<ThreadPoolSample> samples, IReadOnlyList<ThreadPoolInjection> injections, TimeSpan interval, VerdictThresholds? thresholds = null)
    {
        if (samples.Count == 0)
        {
            return new(PoolVerdict.Healthy, "no sample with the runtime's counters taken");
        }
        var quiet = (thresholds ?? VerdictThresholds.Default).QuietPeriod;
        var starvationInjections = injections.Count(i => i.Reason == InjectionReason.Starvation);
        var cooperative = injections.Count(i => i.Reason == InjectionReason.CooperativeBlocking);
        var injected = $"{N(starvationInjections)} starvation and {N(cooperative)} cooperative-blocking injections";
        var threads = $"threads {N(samples[0].ThreadCount)} → {N(samples.Max(s => s.ThreadCount))}";
        var queue = $"queue peak {N(samples.Max(s => s.QueueLength))}";
        var lockWaits = samples.Max(s => s.LockWaiters ?? 0) is var peak and > 0 ? $"lock waiters peak {peak.ToString("0.#", CultureInfo.InvariantCulture)}" : null;
        var last = samples[^1];

        var tail = samples.Where(s => s.Offset >= last.Offset - quiet).ToList();
        var tailTrouble = tail.Where(s => s.Verdict.IsTrouble()).ToList();
        if (tailTrouble.Count * 2 >= tail.Count && tailTrouble.Count > 0)
        {
            // Most frequent at the end; a tie goes to the latest.
            var verdict = tailTrouble.GroupBy(s => s.Verdict)
                .OrderByDescending(g => g.Count()).ThenByDescending(g => g.Max(s => s.Offset)).First().Key;
            var those = samples.Where(s => s.Verdict == verdict).ToList();
            return new(verdict, Join(
                $"{verdict.ToWord()} in {N(those.Count)} of {N(samples.Count)} samples ({S(those.Count * interval.TotalSeconds)})",
                $"first at {S(those[0].Offset.TotalSeconds)}",
                last.Verdict == verdict ? $"still {verdict.ToWord()} at the end" : $"{N(tailTrouble.Count)} of the last {N(tail.Count)} samples, {last.Verdict.ToWord()} at the very end",
                injected, threads, queue, lockWaits));
        }

        var held = samples.Where(s => s.Verdict.ThreadsHeld()).ToList();
        var cpu = samples.Count(s => s.Verdict == PoolVerdict.CpuSaturated);
        var cpuNote = cpu > 0 ? $"cpu-saturated in {N(cpu)} samples" : null;
        if (held.Count == 0)
        {
            return new(PoolVerdict.Healthy, Join("no starving sample", cpuNote, injected, threads, queue, lockWaits));
        }
        var kinds = string.Join(" or ", held.Select(s => s.Verdict.ToWord()).Distinct());
        return new(PoolVerdict.Recovering, Join(
            $"{kinds} in {N(held.Count)} of {N(samples.Count)} samples ({S(held.Count * interval.TotalSeconds)})",
            $"first at {S(held[0].Offset.TotalSeconds)}",
            $"last at {S(held[^1].Offset.TotalSeconds)}, {last.Verdict.ToWord()} at the end",
            cpuNote, injected, threads, queue, lockWaits));
    }

    private static string Join(params string?[] parts) => string.Join(", ", parts.Where(p => p is not null));

    private static string N(long n) => n.ToString(CultureInfo.InvariantCulture);

    private static string S(double seconds) => seconds.ToString("0.0", CultureInfo.InvariantCulture) + " s";
}
