using System.Globalization;
using Tplab.Watch.Delay;

namespace Tplab.Watch.Verdicts;

/// <summary>
/// The starvation verdict, a pure function of one <see cref="VerdictWindow"/>. The runtime's own evidence comes first:
/// a Starvation injection means the gate thread saw work waiting with no dequeue for 500 ms; a CooperativeBlocking
/// injection with work queued means pool threads are blocked in task waits faster than the runtime compensates.
/// Counters alone (queue rising, completions flat, CPU low) catch the case no event reports, such as a pool at its
/// maximum. The rule and its thresholds are documented in docs/watch.md.
/// </summary>
public static class VerdictRule
{
    /// <summary>Judges one sample.</summary>
    public static VerdictResult Judge(VerdictWindow window, VerdictThresholds thresholds)
    {
        var now = window.Current;
        var first = window.Earlier.Count > 0 ? window.Earlier[0] : null;
        var span = first is null ? thresholds.Lookback : Max(now.Offset - first.Offset, TimeSpan.FromMilliseconds(1));
        var starvation = window.Injections.Count(i => i.Reason == InjectionReason.Starvation);
        var cooperative = window.Injections.Count(i => i.Reason == InjectionReason.CooperativeBlocking);
        var queueTrend = Trend(first?.QueueLength, now.QueueLength);
        var lowCpu = now.CpuPercent < thresholds.LowCpuPercent;

        // Seconds of work waiting, at the mean completion rate of the lookback: a closed-loop load completes in
        // bursts, and one quiet interval must not read as "nothing completes".
        var completed = window.Earlier.Select(e => e.CompletedPerSecond).Append(now.CompletedPerSecond).Average();
        var backlog = now.QueueLength == 0 ? 0 : completed <= 0 ? double.PositiveInfinity : now.QueueLength / completed;

        // A large share of the pool's threads waiting for a lock: the pool may also look starved, but adding threads only
        // lengthens the line at the lock. Named first, because it is the cause the other signals would hide.
        // Only with work queued: lock waits with an empty queue are no shortage of threads (a pool that just created
        // its minimum of 60 threads at once was seen with 8.7 of them in lock waits for half a second), and only once the
        // queue has stood a gate-thread period, as for starvation below: the same pool, creating its threads while the
        // first 60 requests queue, shows lock waits and a queue for one sample (a busy CI machine, issue 29).
        if (now.QueueLength >= thresholds.QueueMin && QueuedFor(window, thresholds) >= thresholds.QueueStanding
            && now.LockWaiters >= thresholds.LockWaitersMin && now.LockWaiters >= thresholds.LockWaitShare * Math.Max(1, now.ThreadCount))
        {
            return new(PoolVerdict.LockContention, string.Join(", ",
                $"{N(now.LockWaiters)} threads waiting for contended locks on average, of {N(now.ThreadCount)} pool threads",
                $"queue {N(now.QueueLength)} and {queueTrend}",
                $"completed {N(now.CompletedPerSecond)}/s",
                Cpu(now)));
        }

        // Work waits for CPU, not for threads: most pool workers are running or waiting for a core (state R), or the
        // process's CPU is at the gate thread's "high" mark. On a machine busy with other work, or under a quota, a
        // CPU-bound process gets only part of the cores and its CPU stays low; the gate thread (CPU < 80%) then injects
        // for starvation, adding threads that can only compete for the same cores. A pool grown large enough to hold
        // every request has no queue: more computing workers than cores is then the work waiting for CPU.
        var computing = now.RunnableWorkers is { } busy && busy >= Math.Max(1, now.ThreadCount / 2.0);
        // The machine's cores are all but taken and this process holds a large part of them: on a box shared with other
        // work (its own load generator, say), a CPU-bound process gets under 80% of its cores and its workers read
        // runnable only part of the time, yet no core is free for another thread (the corpus's scoring endpoint: 76–80%
        // of 2 cores, machine 88–92% busy, 1–1.7 of 4 workers runnable, its queue 19–28).
        var coresTaken = now.MachineCpuPercent is { } taken && taken >= thresholds.MachineBusyPercent && now.CpuPercent >= thresholds.ProcessShareOfBusyMachine;
        if ((now.QueueLength >= thresholds.QueueMin && (computing || !lowCpu || coresTaken)) || (computing && now.RunnableWorkers > Math.Max(1, now.Cores)))
        {
            var cpuParts = new List<string>
            {
                $"queue {N(now.QueueLength)} and {queueTrend}",
                now.RunnableWorkers is { } r ? $"{N(r)} of {N(now.ThreadCount)} pool threads running or waiting for a core" : "pool threads busy",
                now.Cores > 0 ? $"{Cpu(now)} of {N(now.Cores)} cores" : Cpu(now),
            };
            if (lowCpu && now.MachineCpuPercent is { } machine && machine >= thresholds.MachineBusyPercent)
            {
                cpuParts.Add($"machine {machine.ToString("0", CultureInfo.InvariantCulture)}% busy: the process gets only part of its cores");
            }
            cpuParts.Add("work waits for CPU, not for threads: more threads will not help");
            return new(PoolVerdict.CpuSaturated, string.Join(", ", cpuParts));
        }

        // One Starvation injection with a short queue is the runtime keeping up (one thread added, queue drained);
        // two within the lookback, or one with a real queue, is a pool that lacks threads.
        if (starvation >= 2 || (starvation == 1 && now.QueueLength >= thresholds.QueueMin))
        {
            return Starving(now, queueTrend, Rate(starvation, span), "starvation", thresholds);
        }
        if (cooperative > 0 && now.QueueLength >= thresholds.QueueMin)
        {
            return Starving(now, queueTrend, Rate(cooperative, span), "cooperative-blocking", thresholds);
        }
        // The counters alone judge a queue only once it has stood for a gate-thread period: a queue seen at one sample
        // (the first of a watch, or the first of a load) is a pool that has not yet had the chance to inject, and a
        // healthy service under a new burst of load looks like that for one interval (issue 29).
        if (now.QueueLength >= thresholds.QueueMin && lowCpu && backlog >= thresholds.BacklogSeconds
            && QueuedFor(window, thresholds) >= thresholds.QueueStanding)
        {
            return new(PoolVerdict.Starving, string.Join(", ",
                $"queue {N(now.QueueLength)} and {queueTrend}",
                BacklogText(backlog, completed),
                $"threads {N(now.ThreadCount)}{(first is null ? "" : $" ({Signed(now.ThreadCount - first.ThreadCount)} in {Seconds(span)})")}",
                "no injection event",
                Cpu(now)));
        }

        // A queue that never drained over the whole lookback, at low CPU, is work waiting for threads even when the
        // gate thread stays silent: blocked threads that still dequeue more often than every 500 ms (16 concurrent
        // Thread.Sleep(500) on 2 cores, say) never trip its starvation check, and the pool stays small.
        // A quarter of the backlog threshold, at the current rate, keeps a busy pool that drains fast out of it.
        var currentBacklog = now.CompletedPerSecond <= 0 ? double.PositiveInfinity : now.QueueLength / now.CompletedPerSecond;
        if (now.QueueLength >= thresholds.QueueMin && lowCpu && window.Earlier.Count > 0
            && span >= thresholds.Lookback / 4 && window.Earlier.All(e => e.QueueLength >= thresholds.QueueMin)
            && currentBacklog >= thresholds.BacklogSeconds / 4
            && now.QueueLength * 2 >= first!.QueueLength) // halving within the lookback is a backlog draining, not stuck
        {
            return new(PoolVerdict.Starving, string.Join(", ",
                $"queue {N(now.QueueLength)} and never below {N(thresholds.QueueMin)} for {Seconds(span)}",
                $"completed {N(now.CompletedPerSecond)}/s",
                $"threads {N(now.ThreadCount)} ({Signed(now.ThreadCount - first.ThreadCount)} in {Seconds(span)})",
                "no injection event: work waits for threads the runtime does not add",
                Cpu(now)));
        }

        // Work measured waiting for a thread: the scheduling delay itself, from the runtime's enqueue and dequeue events,
        // says what the counters can only suggest. Half the interval's items waited a second or more, or two are still
        // waiting and the oldest for a second, while the workers are not computing: a pool too small for its blocked
        // threads, whatever the queue's length (16 users blocking 1 s each on a 3-thread pool queued at most 9 items,
        // and their requests took 3.3 s on average for 1 s of work).
        if (LongWaits(now.Delay, thresholds) is { } waits && lowCpu && !computing && !coresTaken)
        {
            return new(PoolVerdict.Starving, string.Join(", ",
                waits,
                $"queue {N(now.QueueLength)}",
                $"threads {N(now.ThreadCount)}",
                "work waits for threads",
                Cpu(now)));
        }

        // Recovering: starving a moment ago, or still draining a backlog left by starvation.
        if (window.SinceLastStarving is { } quiet
            && (quiet <= thresholds.QuietPeriod || (queueTrend == "falling" && now.QueueLength >= thresholds.QueueMin)))
        {
            return new(PoolVerdict.Recovering, string.Join(", ",
                $"queue {N(now.QueueLength)} and {queueTrend}",
                $"no starvation evidence for {Seconds(quiet)}",
                $"completed {N(now.CompletedPerSecond)}/s",
                Cpu(now)));
        }

        var parts = new List<string> { $"queue {N(now.QueueLength)}", $"completed {N(now.CompletedPerSecond)}/s", $"threads {N(now.ThreadCount)}" };
        if (starvation > 0)
        {
            parts.Add($"{N(starvation)} starvation injection in {Seconds(span)}, short queue: the runtime kept up");
        }
        if (cooperative > 0)
        {
            // Blocked waits the runtime compensated in time: not starving, but worth saying.
            parts.Add($"{N(Rate(cooperative, span))} threads/s added for blocked task waits (cooperative blocking)");
        }
        if (now.LockWaiters >= thresholds.LockWaitersMin)
        {
            parts.Add($"{N(now.LockWaiters)} threads waiting for contended locks on average");
        }
        parts.Add(Cpu(now));
        return new(PoolVerdict.Healthy, string.Join(", ", parts));
    }

    private static VerdictResult Starving(PoolReading now, string queueTrend, double perSecond, string kind, VerdictThresholds thresholds) =>
        new(PoolVerdict.Starving, string.Join(", ",
            $"queue {N(now.QueueLength)} and {queueTrend}",
            $"{N(perSecond)} threads/s added by {kind} injection",
            $"threads {N(now.ThreadCount)}",
            now.CpuPercent < thresholds.LowCpuPercent ? Cpu(now) : $"{Cpu(now)} (high)"));

    /// <summary>
    /// The measured delay's case for starving, in words, or null: the median wait of the interval at least
    /// <see cref="VerdictThresholds.BacklogSeconds"/> (of two waits or more), or two items or more still queued, the
    /// oldest for that long. A single long wait is not enough: one item's pairing can be off (an address reused by a
    /// work item whose enqueue fell outside the window).
    /// </summary>
    public static string? LongWaits(SchedulingDelay? delay, VerdictThresholds thresholds)
    {
        ArgumentNullException.ThrowIfNull(thresholds);
        var limit = thresholds.BacklogSeconds * 1000;
        if (delay is null)
        {
            return null;
        }
        if (delay.Count >= 2 && delay.P50Ms >= limit)
        {
            return $"half of {N(delay.Count)} work items waited {Ms(delay.P50Ms)} or more in the queue (measured)";
        }
        return delay.Waiting >= 2 && delay.OldestWaitingMs >= limit
            ? $"{N(delay.Waiting)} work items waiting, the oldest for {Ms(delay.OldestWaitingMs)} (measured)"
            : null;
    }

    private static string Ms(double ms) => ms >= 1000 ? Seconds(TimeSpan.FromMilliseconds(ms)) : $"{N(ms)} ms";

    /// <summary>
    /// How long the queue has been at least <see cref="VerdictThresholds.QueueMin"/> without a break, as the samples
    /// saw it: from the oldest sample of the current run of queued samples to now; zero when the sample before was not
    /// queued (or there is none: the first sample of a watch).
    /// </summary>
    internal static TimeSpan QueuedFor(VerdictWindow window, VerdictThresholds thresholds)
    {
        var since = window.Current.Offset;
        for (var i = window.Earlier.Count - 1; i >= 0 && window.Earlier[i].QueueLength >= thresholds.QueueMin; i--)
        {
            since = window.Earlier[i].Offset;
        }
        return window.Current.Offset - since;
    }

    private static string Trend(long? before, long now) =>
        before is not { } b ? (now > 0 ? "rising" : "steady") : now > b ? "rising" : now < b ? "falling" : "steady";

    private static string BacklogText(double seconds, double completedPerSecond) =>
        double.IsPositiveInfinity(seconds)
            ? "no work item completed"
            : $"{Seconds(TimeSpan.FromSeconds(Math.Min(seconds, 86400)))} of backlog at {N(completedPerSecond)} completed/s";

    private static double Rate(int count, TimeSpan span) => count / Math.Max(span.TotalSeconds, 0.5);

    private static TimeSpan Max(TimeSpan a, TimeSpan b) => a > b ? a : b;

    private static string Cpu(PoolReading r) => $"CPU {r.CpuPercent.ToString("0", CultureInfo.InvariantCulture)}%";

    private static string Seconds(TimeSpan t) => $"{t.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s";

    private static string Signed(int n) => n.ToString("+0;-0;0", CultureInfo.InvariantCulture);

    private static string N(double value) => value.ToString(value >= 10 || value == Math.Floor(value) ? "0" : "0.#", CultureInfo.InvariantCulture);
}
