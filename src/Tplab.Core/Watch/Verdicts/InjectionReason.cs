namespace Tplab.Watch.Verdicts;

/// <summary>
/// Why the runtime changed the worker-thread goal: the Reason field of ThreadPoolWorkerThreadAdjustmentAdjustment
/// (Microsoft-Windows-DotNETRuntime event 55). Values 0–7 are the ThreadAdjustmentReasonMap of ClrEtwAll.man;
/// 8 (CooperativeBlocking, .NET 6+) exists only in the managed pool's enum, so some parsers do not name it.
/// </summary>
public enum InjectionReason
{
    /// <summary>Hill climbing warming up.</summary>
    Warmup = 0,

    /// <summary>Hill climbing initialising.</summary>
    Initializing = 1,

    /// <summary>Hill climbing's random exploration step.</summary>
    RandomMove = 2,

    /// <summary>Hill climbing moved toward better throughput.</summary>
    ClimbingMove = 3,

    /// <summary>Hill climbing saw the throughput change regime.</summary>
    ChangePoint = 4,

    /// <summary>Hill climbing settling.</summary>
    Stabilizing = 5,

    /// <summary>The gate thread saw work waiting and no dequeue for 500 ms (CPU below 80%) and added a thread.</summary>
    Starvation = 6,

    /// <summary>A worker timed out waiting for work and left.</summary>
    ThreadTimedOut = 7,

    /// <summary>Compensation for a pool thread blocked in a task wait (.Result, .Wait()), .NET 6+.</summary>
    CooperativeBlocking = 8,

    /// <summary>A code this version of tplab does not know; the raw value is kept beside it.</summary>
    Unknown = -1,
}

/// <summary>Decodes the raw Reason integer of event 55; never trusts a parser's own enum.</summary>
public static class InjectionReasons
{
    /// <summary>The reason for a raw code; codes outside 0–8 are <see cref="InjectionReason.Unknown"/>.</summary>
    public static InjectionReason FromCode(long code) =>
        code is >= 0 and <= 8 ? (InjectionReason)(int)code : InjectionReason.Unknown;

    /// <summary>The name used in every output: the enum name, or "Unknown(N)" for an unknown code.</summary>
    public static string Name(InjectionReason reason, long code) =>
        reason == InjectionReason.Unknown ? $"Unknown({code.ToString(System.Globalization.CultureInfo.InvariantCulture)})" : reason.ToString();

}
