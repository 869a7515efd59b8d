using Tplab.Common;

namespace Tplab.Watch.Verdicts;

/// <summary>The thresholds of <see cref="VerdictRule"/>; defaults and why they are what they are: docs/watch.md.</summary>
public sealed record VerdictThresholds
{
    /// <summary>The defaults documented in docs/watch.md.</summary>
    public static readonly VerdictThresholds Default = new();

    /// <summary>How far back injections and trends are read (default 2 s: four gate-thread periods of 500 ms).</summary>
    public TimeSpan Lookback { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>The gate thread's own limit: it injects for starvation only below this CPU (CpuUtilizationLow = 80%).</summary>
    public double LowCpuPercent { get; init; } = 80;

    /// <summary>Queue length from which a backlog alone (no injection event) can count as starving (default 10).</summary>
    public long QueueMin { get; init; } = 10;

    /// <summary>
    /// Backlog, in seconds of work at the current completion rate (queue ÷ completed/s), from which a queue at low CPU
    /// counts as starving without an injection event (default 1 s: work waits longer than a second for a thread).
    /// </summary>
    public double BacklogSeconds { get; init; } = 1;

    /// <summary>
    /// How long a queue must have stood (≥ <see cref="QueueMin"/> at every sample meanwhile) before a backlog alone,
    /// with no injection event, counts as starving (default 400 ms: the gate thread's period of 500 ms, after which a
    /// starved pool gets a Starvation injection, less a fifth for the samples' jitter). One sample of queue, such as
    /// the first of a watch attached to a loaded service, is a pool that has not had its chance to inject. Zero judges
    /// every sample on its own.
    /// </summary>
    public TimeSpan QueueStanding { get; init; } = TimeSpan.FromMilliseconds(400);

    /// <summary>
    /// Threads waiting for locks, on average over the interval, from which lock contention can be the verdict while
    /// work is queued (default 0.5: half a thread's time).
    /// </summary>
    public double LockWaitersMin { get; init; } = 0.5;

    /// <summary>
    /// Share of the pool's threads that must be waiting for locks for the verdict to be lock contention (default 1/4:
    /// the lock's holder is often itself a pool thread, and in a 3-thread pool one holds the lock while the waits of the
    /// others average 0.8–2 threads).
    /// </summary>
    public double LockWaitShare { get; init; } = 0.25;

    /// <summary>
    /// The whole machine's busy CPU, in percent of all its cores, from which its cores count as taken (default 85: on
    /// two cores, less than a third of one left idle).
    /// </summary>
    public double MachineBusyPercent { get; init; } = 85;

    /// <summary>
    /// The process's CPU, in percent of its cores, from which it holds a large part of a machine whose cores are taken
    /// (<see cref="MachineBusyPercent"/>): a queue then waits for CPU, not threads (default 50: a core's worth on two).
    /// </summary>
    public double ProcessShareOfBusyMachine { get; init; } = 50;

    /// <summary>How long after the last starving sample the pool is still called recovering (default 2 s).</summary>
    public TimeSpan QuietPeriod { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Validates the ranges; a bad value is a usage error naming it.</summary>
    public VerdictThresholds Validated()
    {
        if (Lookback <= TimeSpan.Zero || QuietPeriod < TimeSpan.Zero || QueueStanding < TimeSpan.Zero || QueueMin < 1 || LowCpuPercent is <= 0 or > 100 || BacklogSeconds <= 0
            || LockWaitersMin <= 0 || LockWaitShare is <= 0 or > 1 || MachineBusyPercent is <= 0 or > 100 || ProcessShareOfBusyMachine is <= 0 or > 100)
        {
            throw TplabException.Usage("verdict thresholds out of range (lookback > 0, quiet period >= 0, queue standing >= 0, queue min >= 1, low CPU in (0, 100], backlog > 0, lock waiters > 0, lock-wait share in (0, 1], machine busy and process share in (0, 100])");
        }
        return this;
    }
}

/// <summary>
/// What the verdict rule sees for one sample: the current reading, the earlier readings inside the lookback
/// (oldest first), the injections inside the lookback, and how long ago the pool was last judged starving.
/// </summary>
public sealed record VerdictWindow(
    PoolReading Current,
    IReadOnlyList<PoolReading> Earlier,
    IReadOnlyList<ThreadPoolInjection> Injections,
    TimeSpan? SinceLastStarving);
