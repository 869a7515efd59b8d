namespace Tplab.Runtime;

/// <summary>One EventCounters payload: a counter's value over the runtime's last interval.</summary>
/// <param name="Name">Counter name, e.g. threadpool-queue-length.</param>
/// <param name="Value">Mean for a polling counter; increment per second for an incrementing one.</param>
/// <param name="Timestamp">Arrival time (Stopwatch timestamp) in tplab's process.</param>
public sealed record CounterValue(string Name, double Value, long Timestamp)
{
    /// <summary>For an incrementing counter, the raw change over the runtime's interval; null for a polling one.</summary>
    public double? Increment { get; init; }
}

/// <summary>A decoded ThreadPoolWorkerThreadAdjustmentAdjustment (event 55).</summary>
/// <param name="Timestamp">When the target emitted it, as a Stopwatch timestamp of this machine.</param>
public sealed record AdjustmentEvent(long Timestamp, double AverageThroughput, int NewWorkerThreadCount, long ReasonCode);

/// <summary>A decoded ThreadPoolMinMaxThreads (event 59): emitted at pool creation and on SetMinThreads/SetMaxThreads.</summary>
public sealed record MinMaxEvent(long Timestamp, int MinWorkerThreads, int MaxWorkerThreads, int MinIoThreads, int MaxIoThreads);

/// <summary>A thread began (ContentionStart, 81) or ended (ContentionStop, 91) waiting for a contended lock.</summary>
/// <param name="Timestamp">When the target emitted it, as a Stopwatch timestamp of this machine.</param>
/// <param name="ThreadId">The waiting thread (OS id).</param>
/// <param name="Started">True for the start of a wait, false for its end.</param>
public sealed record ContentionEvent(long Timestamp, int ThreadId, bool Started);

/// <summary>
/// A work item entering (ThreadPoolEnqueueWork, event 30) or leaving (ThreadPoolDequeueWork, event 31) the pool's
/// queues, from the FrameworkEventSource. The runtime identifies the item by a number it derives from the object
/// (its address in older runtimes, its hash code in newer ones): equal numbers pair an enqueue with its dequeue.
/// </summary>
/// <param name="TimeMs">When the target emitted it, in milliseconds on the trace's own clock (only differences count).</param>
/// <param name="WorkId">The runtime's number for the work item.</param>
/// <param name="Enqueued">True for an enqueue, false for a dequeue.</param>
public readonly record struct WorkItemEvent(double TimeMs, long WorkId, bool Enqueued);
