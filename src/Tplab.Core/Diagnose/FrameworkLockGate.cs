using Tplab.Watch;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose;

/// <summary>
/// Sets aside the waits for locks the framework takes inside the APIs the application called (a timer queue's lock
/// under <c>Task.Delay</c>, a connection pool's under <c>HttpClient.SendAsync</c>) when the pool's watch never saw
/// threads held over the capture. Such a lock is held for microseconds; when pool threads wait for it, its holder
/// was not given the CPU (a busy machine), and the app has nothing to change: a healthy async endpoint beside other
/// work was once named blocked by <c>Lock.Enter</c> with 0.6 threads. With the pool starving, lock contention or
/// recovering at any sample, or with no watch, they stay culprits: then they may be what holds the pool.
/// </summary>
public static class FrameworkLockGate
{
    /// <summary><paramref name="diagnosis"/> with the framework's lock waits set aside when <paramref name="pool"/> never had threads held.</summary>
    public static Diagnosis Apply(Diagnosis diagnosis, PoolTimeline? pool)
    {
        ArgumentNullException.ThrowIfNull(diagnosis);
        if (pool is null || pool.Samples.Count == 0 || pool.Samples.Any(s => s.Verdict.ThreadsHeld() || s.Verdict == PoolVerdict.Recovering)
            || !diagnosis.Culprits.Any(c => c.FrameworkLock))
        {
            return diagnosis;
        }
        var kept = diagnosis.Culprits.Where(c => !c.FrameworkLock).ToList();
        var setAside = diagnosis.Culprits.Where(c => c.FrameworkLock).Sum(c => c.Threads);
        return diagnosis with
        {
            Verdict = BlockingDiagnoser.VerdictOf(kept.Count, diagnosis.Evidence.BusyThreads),
            Culprits = kept,
            Evidence = diagnosis.Evidence with { FrameworkLockThreads = setAside },
        };
    }
}
