using Tplab.Common.Json;

namespace Tplab.Watch.Verdicts;

/// <summary>The state of a thread pool, for one sample or for a whole watch.</summary>
public enum PoolVerdict
{
    /// <summary>Work is picked up as it arrives; no sign the pool lacks threads.</summary>
    Healthy,

    /// <summary>Work waits for a thread: the runtime is injecting threads because of starvation or blocking.</summary>
    Starving,

    /// <summary>Was starving recently; the queue is draining and injections have stopped.</summary>
    Recovering,

    /// <summary>Work waits while most pool threads wait for a contended lock: more threads would only queue at the lock.</summary>
    LockContention,

    /// <summary>Work waits for CPU, not for threads: the pool's threads are computing and the process has all the CPU it can get.</summary>
    CpuSaturated,
}

/// <summary>A verdict with the evidence for it in words, e.g. "queue 94 and rising, 2 threads/s added by starvation injection, CPU 3%".</summary>
public sealed record VerdictResult(PoolVerdict Verdict, string Evidence)
{
    /// <summary>The lower-case word used in every output (healthy, starving, recovering, lock-contention, cpu-saturated).</summary>
    public string Word => Verdict.ToWord();
}

/// <summary>Formatting and meaning of <see cref="PoolVerdict"/>.</summary>
public static class PoolVerdicts
{
    /// <summary>healthy, starving, recovering, lock-contention or cpu-saturated.</summary>
    public static string ToWord(this PoolVerdict verdict) => Words.Of(verdict);

    /// <summary>Pool threads are held (blocked or waiting for a lock) while work waits: what diagnose looks for.</summary>
    public static bool ThreadsHeld(this PoolVerdict verdict) => verdict is PoolVerdict.Starving or PoolVerdict.LockContention;

    /// <summary>Work waits, for threads or for CPU.</summary>
    public static bool IsTrouble(this PoolVerdict verdict) => verdict is PoolVerdict.Starving or PoolVerdict.LockContention or PoolVerdict.CpuSaturated;
}
