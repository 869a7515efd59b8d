using Tplab.Blocking;

namespace Tplab.Diagnose.Capture;

/// <summary>Where an observation of a thread came from.</summary>
public enum ObservationSource
{
    /// <summary>A sample-profiler stack taken while the thread was outside managed code (sample type External).</summary>
    Sample,

    /// <summary>A WaitHandleWait/Start event (.NET 9+), with the wait's measured length.</summary>
    WaitEvent,
}

/// <summary>A thread seen waiting, for <see cref="HeldMs"/> milliseconds from <see cref="StartMs"/>, with its stack (top frame first).</summary>
public sealed record ThreadObservation(int ThreadId, double StartMs, double HeldMs, IReadOnlyList<StackFrame> Frames, ObservationSource Source)
{
    /// <summary>The activity id the wait event carried (the request's, flowed into its continuations and Task.Run bodies), or empty.</summary>
    public Guid Activity { get; init; }
}

/// <summary>A raw sample-profiler stack: thread, time and whether the thread was outside managed code.</summary>
public sealed record RawSample(int ThreadId, double TimeMs, bool External, IReadOnlyList<StackFrame> Frames);

/// <summary>A raw wait: WaitHandleWait/Start with its stack and the matching Stop time, or null if it had not stopped by the end.</summary>
public sealed record RawWait(int ThreadId, double StartMs, double? StopMs, IReadOnlyList<StackFrame> Frames)
{
    /// <summary>
    /// The activity id of the Start event: with TPL's TasksFlowActivityIds on, the runtime's own events carry the activity
    /// of the code that runs, which flows with the ExecutionContext from ASP.NET Core's request start into every
    /// continuation and Task.Run body of the request. Empty when none.
    /// </summary>
    public Guid Activity { get; init; }
}
