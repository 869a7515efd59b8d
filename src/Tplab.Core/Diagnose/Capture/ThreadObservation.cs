using Tplab.Diagnose.Stacks;

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
public sealed record ThreadObservation(int ThreadId, double StartMs, double HeldMs, IReadOnlyList<StackFrame> Frames, ObservationSource Source);

/// <summary>A raw sample-profiler stack: thread, time and whether the thread was outside managed code.</summary>
public sealed record RawSample(int ThreadId, double TimeMs, bool External, IReadOnlyList<StackFrame> Frames);

/// <summary>A raw wait: WaitHandleWait/Start with its stack and the matching Stop time, or null if it had not stopped by the end.</summary>
public sealed record RawWait(int ThreadId, double StartMs, double? StopMs, IReadOnlyList<StackFrame> Frames);
