using System.Globalization;
using Tplab.Runtime;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch;

/// <summary>
/// Everything one watch recorded, immutable, with its figures computed once: the samples, the injections, the peaks,
/// the injections per reason, the overall verdict, and whether the process exited (or the watch was interrupted).
/// </summary>
public sealed class PoolTimeline
{
    /// <summary>Computes the summary of a finished watch.</summary>
    /// <param name="recorded">The verdict a saved watch recorded for itself, kept as it was written (a saved file is
    /// read back as it was judged then); null to judge the samples now.</param>
    public PoolTimeline(
        int processId,
        TimeSpan interval,
        TimeSpan duration,
        IReadOnlyList<ThreadPoolSample> samples,
        IReadOnlyList<ThreadPoolInjection> injections,
        MinMaxEvent? limits,
        bool processExited,
        VerdictResult? recorded = null)
    {
        ProcessId = processId;
        Interval = interval;
        Duration = duration;
        Samples = [.. samples];
        Injections = [.. injections];
        Limits = limits;
        ProcessExited = processExited;
        // Every sample carries the runtime's counters: the sampler makes none before the first payload arrives.
        ThreadsStart = Samples.Count > 0 ? Samples[0].ThreadCount : 0;
        ThreadsPeak = Samples.Count > 0 ? Samples.Max(s => s.ThreadCount) : 0;
        OsThreadsPeak = Samples.Count > 0 ? Samples.Max(s => s.OsThreads) : 0;
        QueuePeak = Samples.Count > 0 ? Samples.Max(s => s.QueueLength) : 0;
        InjectionsByReason = Injections.GroupBy(i => i.ReasonName).OrderBy(g => g.Key, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        FirstStarving = Samples.FirstOrDefault(s => s.Verdict.ThreadsHeld())?.Offset;
        DelayP99PeakMs = Samples.Where(s => s.Delay is { Count: > 0 }).Select(s => (double?)s.Delay!.P99Ms).Max();
        EstimatePeakMs = Samples.Select(s => s.EstimatedDelayMs).Where(e => e is not null).Max();
        if (recorded is not null)
        {
            (Verdict, Evidence) = (recorded.Verdict, recorded.Evidence);
            return;
        }
        var verdict = TimelineVerdict.Judge(Samples, Injections, interval);
        Verdict = verdict.Verdict;
        // The runtime sends its first counters one interval after the session opens: a shorter watch saw nothing to judge.
        var evidence = HasVerdict ? verdict.Evidence : string.Create(CultureInfo.InvariantCulture,
            $"no verdict: the runtime's counters arrive after about {interval.TotalSeconds:0.##} s, and the watch took no sample with them in {duration.TotalSeconds:0.#} s (watch longer, or at a shorter --interval)");
        Evidence = processExited ? evidence + ", the process exited during the watch" : evidence;
    }

    /// <summary>The watched process.</summary>
    public int ProcessId { get; }

    /// <summary>The sampling interval.</summary>
    public TimeSpan Interval { get; }

    /// <summary>How long the watch ran.</summary>
    public TimeSpan Duration { get; }

    /// <summary>Every sample, in time order.</summary>
    public IReadOnlyList<ThreadPoolSample> Samples { get; }

    /// <summary>Every thread-goal change the runtime reported, in time order.</summary>
    public IReadOnlyList<ThreadPoolInjection> Injections { get; }

    /// <summary>The pool's min/max worker and I/O threads, when the runtime reported them during the watch (event 59).</summary>
    public MinMaxEvent? Limits { get; }

    /// <summary>Whether the process exited before the watch was stopped; the data up to then is kept.</summary>
    public bool ProcessExited { get; }

    /// <summary>Pool threads in the first sample that had the runtime's counters.</summary>
    public int ThreadsStart { get; }

    /// <summary>Most pool threads in any sample.</summary>
    public int ThreadsPeak { get; }

    /// <summary>Most OS threads of the process in any sample.</summary>
    public int OsThreadsPeak { get; }

    /// <summary>Longest queue in any sample.</summary>
    public long QueuePeak { get; }

    /// <summary>
    /// Why the scheduling delay was not measured, in one line (off, refused, the runtime sent no work-item events);
    /// null when it was, or when the timeline was read from a file that did not say.
    /// </summary>
    public string? DelayNote { get; init; }

    /// <summary>When the watch began (wall clock, UTC); null when read from a file written before tplab kept it.</summary>
    public DateTimeOffset? StartedAt { get; init; }

    /// <summary>Injection count per reason name (e.g. Starvation, CooperativeBlocking, Unknown(9)).</summary>
    public IReadOnlyDictionary<string, int> InjectionsByReason { get; }

    /// <summary>The highest p99 of the measured scheduling delay over the samples' intervals; null when never measured.</summary>
    public double? DelayP99PeakMs { get; }

    /// <summary>The highest finite estimate of the delay (queue ÷ completed/s); null when none was finite.</summary>
    public double? EstimatePeakMs { get; }

    /// <summary>Offset of the first starving sample, if any.</summary>
    public TimeSpan? FirstStarving { get; }

    /// <summary>Whether the watch took any sample to judge; without one, <see cref="Verdict"/> means nothing and no output names it.</summary>
    public bool HasVerdict => Samples.Count > 0;

    /// <summary>The verdict of the whole watch.</summary>
    public PoolVerdict Verdict { get; }

    /// <summary>The evidence for <see cref="Verdict"/>, in words.</summary>
    public string Evidence { get; }

    /// <summary>Injections with the given reason.</summary>
    public int InjectionCount(InjectionReason reason) => Injections.Count(i => i.Reason == reason);
}
