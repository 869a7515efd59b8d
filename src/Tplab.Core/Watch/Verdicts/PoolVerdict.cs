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
}

/// <summary>A verdict with the evidence for it in words, e.g. "queue 94 and rising, 2 threads/s added by starvation injection, CPU 3%".</summary>
public sealed record VerdictResult(PoolVerdict Verdict, string Evidence)
{
    /// <summary>The lower-case word used in every output (healthy, starving, recovering).</summary>
    public string Word => Verdict.ToWord();
}

/// <summary>Formatting of <see cref="PoolVerdict"/>.</summary>
public static class PoolVerdicts
{
    /// <summary>healthy, starving or recovering.</summary>
    public static string ToWord(this PoolVerdict verdict) => verdict switch
    {
        PoolVerdict.Starving => "starving",
        PoolVerdict.Recovering => "recovering",
        _ => "healthy",
    };
}
