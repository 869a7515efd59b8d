using Tplab.Watch.Delay;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch;

/// <summary>One thing a watch saw, at <see cref="Offset"/> from the start of the watch: a sample or an injection.</summary>
public abstract record WatchRecord(TimeSpan Offset)
{
    /// <summary>The watched process (a watch of several processes mixes their records); 0 when not known (an old file).</summary>
    public int ProcessId { get; init; }
}

/// <summary>
/// The target's thread pool at one moment: pool counters from the runtime (System.Runtime EventCounters),
/// OS thread count and CPU from /proc, and the verdict of <see cref="VerdictRule"/> for this moment.
/// </summary>
/// <param name="ThreadCount">Thread-pool threads (ThreadPool.ThreadCount).</param>
/// <param name="QueueLength">Work items waiting (ThreadPool.PendingWorkItemCount).</param>
/// <param name="CompletedPerSecond">Work items completed per second over the runtime's last counter interval.</param>
/// <param name="OsThreads">Threads of the process (Threads: in /proc/PID/status).</param>
/// <param name="CpuPercent">The process's CPU over the last interval, in percent of the cores it may use (<see cref="Cores"/>: the
/// gate thread's measure, which divides by the process's own Environment.ProcessorCount).</param>
/// <param name="ContentionsPerSecond">Monitor lock contentions per second.</param>
/// <param name="CountersAgeMs">How old the newest counter payload was when sampled; null before the first one arrived.</param>
public sealed record ThreadPoolSample(
    TimeSpan Offset,
    int ThreadCount,
    long QueueLength,
    double CompletedPerSecond,
    int OsThreads,
    double CpuPercent,
    double ContentionsPerSecond,
    double? CountersAgeMs,
    PoolVerdict Verdict,
    string Evidence) : WatchRecord(Offset)
{
    /// <summary>Threads waiting for contended locks, on average over the interval (ContentionStart/Stop); null before the runtime sent any.</summary>
    public double? LockWaiters { get; init; }

    /// <summary>
    /// Pool worker threads running or waiting for a core at the sample (state R in /proc, averaged over a few looks);
    /// read only while work is queued or the CPU is busy, else null.
    /// </summary>
    public double? RunnableWorkers { get; init; }

    /// <summary>Cores the process may use (affinity, cgroup quota, DOTNET_PROCESSOR_COUNT): the 100% of <see cref="CpuPercent"/>.</summary>
    public double Cores { get; init; }

    /// <summary>The whole machine's busy CPU over the interval, in percent of all its cores (/proc/stat); null when unreadable.</summary>
    public double? MachineCpuPercent { get; init; }

    /// <summary>
    /// The scheduling delay measured from the runtime's enqueue/dequeue events over this sample's interval; null when
    /// the events were off for the whole interval (sampled windows, <c>--delay off</c>) or the runtime sent none.
    /// </summary>
    public SchedulingDelay? Delay { get; init; }

    /// <summary>Work items completed since the watch began, the runtime's increments summed (for exporters' counters).</summary>
    public double CompletedTotal { get; init; }

    /// <summary>Lock contentions since the watch began (for exporters' counters).</summary>
    public double ContentionsTotal { get; init; }

    /// <summary>
    /// The estimate of the delay from the counters alone (<see cref="DelayEstimate"/>: queue ÷ completed per second), in
    /// milliseconds; null when items were queued and none completed.
    /// </summary>
    public double? EstimatedDelayMs => DelayEstimate.Milliseconds(QueueLength, CompletedPerSecond);

    /// <summary>The pool-counter part of the sample, as the verdict rule reads it.</summary>
    public PoolReading Reading => new(Offset, ThreadCount, QueueLength, CompletedPerSecond, CpuPercent)
    {
        LockWaiters = LockWaiters ?? 0,
        RunnableWorkers = RunnableWorkers,
        Cores = Cores,
        MachineCpuPercent = MachineCpuPercent,
    };
}

/// <summary>
/// A thread-goal change the runtime reported (ThreadPoolWorkerThreadAdjustmentAdjustment, event 55).
/// </summary>
/// <param name="NewThreadCount">The new worker-thread goal.</param>
/// <param name="Reason">The decoded reason.</param>
/// <param name="ReasonCode">The raw Reason integer, kept so unknown codes stay visible.</param>
/// <param name="AverageThroughput">Hill climbing's average throughput (completions per second) at the change.</param>
public sealed record ThreadPoolInjection(
    TimeSpan Offset,
    int NewThreadCount,
    InjectionReason Reason,
    long ReasonCode,
    double AverageThroughput) : WatchRecord(Offset)
{
    /// <summary>The reason by name, "Unknown(N)" for a code tplab does not know.</summary>
    public string ReasonName => InjectionReasons.Name(Reason, ReasonCode);
}

/// <summary>The pool counters of one sample, the input of the verdict rule.</summary>
/// <param name="CpuPercent">The process's CPU in percent of the cores it may use (<see cref="Cores"/>).</param>
public sealed record PoolReading(TimeSpan Offset, int ThreadCount, long QueueLength, double CompletedPerSecond, double CpuPercent)
{
    /// <summary>Threads waiting for contended locks, on average over the interval.</summary>
    public double LockWaiters { get; init; }

    /// <summary>Pool worker threads running or waiting for a core at the sample; null when not read.</summary>
    public double? RunnableWorkers { get; init; }

    /// <summary>Cores the process may use; 0 when unknown.</summary>
    public double Cores { get; init; }

    /// <summary>The whole machine's busy CPU, in percent of all its cores; null when unknown.</summary>
    public double? MachineCpuPercent { get; init; }

    /// <summary>The measured scheduling delay of the interval; null when not measured (off, or between sampled windows).</summary>
    public SchedulingDelay? Delay { get; init; }
}
