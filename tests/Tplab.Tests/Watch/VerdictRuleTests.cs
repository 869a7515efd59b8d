using Tplab.Watch.Delay;
using Tplab.Watch;
using Tplab.Watch.Verdicts;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>The verdict rule as a table: readings and injections in, verdict and evidence out. No process, no clock.</summary>
[ParallelSafe]
public sealed class VerdictRuleTests
{
    private static readonly VerdictThresholds T = VerdictThresholds.Default;

    private static PoolReading R(double at, int threads, long queue, double completed, double cpu = 3) =>
        new(TimeSpan.FromSeconds(at), threads, queue, completed, cpu);

    private static PoolReading Cpu(PoolReading r, double runnable, double cores) => r with { RunnableWorkers = runnable, Cores = cores };

    private static PoolReading Locks(PoolReading r, double waiters) => r with { LockWaiters = waiters };

    // The measured scheduling delay of the interval: waits paired, their median and 99th percentile, items still queued and the oldest's wait.
    private static PoolReading Waits(PoolReading r, long count, double p50, double p99, int waiting, double oldest) =>
        r with { Delay = new SchedulingDelay(count, p50, p50, p99, p99, 0, waiting, oldest, 0.5) };

    private static ThreadPoolInjection I(double at, InjectionReason reason, int to = 5) =>
        new(TimeSpan.FromSeconds(at), to, reason, (long)reason, 0);

    private static VerdictResult Judge(PoolReading now, PoolReading[] earlier, ThreadPoolInjection[] injections, double? sinceStarving = null) =>
        VerdictRule.Judge(new VerdictWindow(now, earlier, injections, sinceStarving is { } s ? TimeSpan.FromSeconds(s) : null), T);

    public static TheoryData<string, PoolReading, PoolReading[], ThreadPoolInjection[], double?, PoolVerdict, string> Table => new()
    {
        // The runtime's own evidence: Starvation injections.
        { "two starvation injections", R(3, 4, 94, 2), [R(1, 2, 40, 2), R(2, 3, 70, 2)], [I(1.5, InjectionReason.Starvation), I(2.5, InjectionReason.Starvation)], null, PoolVerdict.Starving, "queue 94 and rising, 1 threads/s added by starvation injection" },
        { "one starvation injection, long queue", R(3, 3, 50, 2), [R(2, 2, 40, 2)], [I(2.5, InjectionReason.Starvation)], null, PoolVerdict.Starving, "added by starvation injection" },
        { "one starvation injection, short queue: the runtime kept up", R(3, 61, 1, 60), [R(2, 60, 1, 60)], [I(2.5, InjectionReason.Starvation)], null, PoolVerdict.Healthy, "the runtime kept up" },
        // Cooperative blocking (.Result, .Wait()): starving while work still queues, healthy once compensated.
        { "cooperative blocking with a queue", R(3, 20, 43, 6), [R(2, 14, 49, 8)], [I(2.2, InjectionReason.CooperativeBlocking), I(2.5, InjectionReason.CooperativeBlocking)], null, PoolVerdict.Starving, "queue 43 and falling, 2 threads/s added by cooperative-blocking injection" },
        { "cooperative blocking compensated", R(3, 60, 0, 120), [R(2, 58, 0, 118)], [I(2.5, InjectionReason.CooperativeBlocking)], null, PoolVerdict.Healthy, "blocked task waits (cooperative blocking)" },
        // Counters alone: a backlog at low CPU is starvation even with no injection event (e.g. at max threads).
        { "backlog, nothing completes", R(3, 32, 200, 0), [R(2, 32, 150, 0)], [], null, PoolVerdict.Starving, "no work item completed" },
        { "backlog at a low completion rate", R(3, 5, 54, 10), [R(2, 5, 54, 0)], [], null, PoolVerdict.Starving, "10.8 s of backlog at 5 completed/s" },
        // Blocked threads that still dequeue more often than every 500 ms never trip the gate thread: seen with
        // 16 concurrent Thread.Sleep(500) on 2 cores (queue 10-13, pool stuck at 3 threads, 2.8 s mean latency).
        { "queue never drains, gate thread silent", R(4, 3, 10, 8), [R(2, 3, 13, 33), R(3, 3, 10, 8)], [I(2.5, InjectionReason.Warmup)], null, PoolVerdict.Starving, "queue 10 and never below 10 for 2.0 s" },
        { "queue never drains, one sample back (1 s interval, jitter)", R(3.9994, 3, 11, 13), [R(2.9996, 3, 12, 26)], [], null, PoolVerdict.Starving, "never below 10" },
        { "queue only just formed", R(3, 3, 12, 26), [R(1.001, 0, 0, 0), R(2, 3, 12, 26)], [], null, PoolVerdict.Healthy, "queue 12" },
        { "busy but keeping up", R(3, 8, 20, 5000), [R(2, 8, 25, 5000)], [], null, PoolVerdict.Healthy, "queue 20, completed 5000/s" },
        // The measured delay: 16 users blocking 1 s each on a 3-thread pool queued at most 9 items, no rule above
        // fired, and their requests took 3.3 s for 1 s of work (UserServiceTests, a CI run on a quiet machine).
        { "half the items waited a second, short queue", Waits(R(3, 3, 9, 4, 20), 5, 1003, 3006, 9, 1105), [R(2, 3, 7, 4)], [], null, PoolVerdict.Starving, "half of 5 work items waited 1.0 s or more in the queue (measured), queue 9" },
        { "items still waiting, the oldest for 1.6 s", Waits(R(3, 3, 9, 10, 20), 2, 480, 1586, 10, 1586), [R(2, 3, 9, 10)], [], null, PoolVerdict.Starving, "10 work items waiting, the oldest for 1.6 s (measured)" },
        { "one long wait among short ones", Waits(R(3, 5, 4, 4, 17), 9, 0.6, 2429, 1, 0.1), [R(2, 5, 7, 4)], [], null, PoolVerdict.Healthy, "queue 4" },
        { "waits under a second", Waits(R(3, 3, 9, 8, 20), 3, 580, 580, 9, 681), [R(2, 3, 0, 0)], [], null, PoolVerdict.Healthy, "queue 9" },
        { "long waits while the workers compute", Waits(Cpu(R(3, 4, 6, 20, 45), runnable: 4, cores: 2), 6, 1200, 1500, 6, 1300), [R(2, 4, 6, 20, 45)], [], null, PoolVerdict.CpuSaturated, "work waits for CPU" },
        // CPU saturation: work waits for CPU, not for threads.
        { "backlog at high CPU is CPU-bound, not starvation", R(3, 8, 200, 50, 97), [R(2, 8, 100, 50, 97)], [], null, PoolVerdict.CpuSaturated, "work waits for CPU, not for threads" },
        // The trial's case: a CPU-bound endpoint on a machine shared with the load generator gets 55% of its 2 cores;
        // the gate thread (CPU < 80%) injects for starvation, but 7 threads want the 2 cores.
        { "CPU-bound with part of the cores", Cpu(R(3, 6, 40, 30, 55), runnable: 5, cores: 2), [R(2, 5, 35, 30, 55)], [I(2.2, InjectionReason.Starvation), I(2.8, InjectionReason.Starvation)], null, PoolVerdict.CpuSaturated, "5 of 6 pool threads running or waiting for a core, CPU 55% of 2 cores" },
        { "CPU-bound on a busy machine says so", Cpu(R(3, 6, 40, 30, 40), runnable: 5, cores: 2) with { MachineCpuPercent = 99 }, [R(2, 5, 35, 30, 40)], [], null, PoolVerdict.CpuSaturated, "CPU 40% of 2 cores, machine 99% busy: the process gets only part of its cores" },
        // A CPU-bound endpoint beside its own load generator (the corpus, in CI): 76% of 2 cores, the machine 88% busy,
        // one of four workers runnable at the look; its queue stood. Nothing is free for another thread.
        { "CPU-bound on a machine whose cores are taken", Cpu(R(3, 4, 19, 60, 76), runnable: 1, cores: 2) with { MachineCpuPercent = 88 }, [R(2.5, 4, 19, 60, 80), R(2, 3, 13, 53, 82)], [], null, PoolVerdict.CpuSaturated, "machine 88% busy: the process gets only part of its cores" },
        { "blocked threads on a machine whose cores others take", Cpu(R(3, 4, 19, 2, 10), runnable: 0, cores: 2) with { MachineCpuPercent = 95 }, [R(2, 4, 19, 2, 10)], [], null, PoolVerdict.Starving, "of backlog" },
        { "blocked threads on a busy machine are starving", Cpu(R(3, 6, 40, 2, 9), runnable: 1, cores: 2), [R(2, 5, 35, 2, 9)], [I(2.2, InjectionReason.Starvation), I(2.8, InjectionReason.Starvation)], null, PoolVerdict.Starving, "added by starvation injection" },
        { "a third of the workers runnable is not CPU-bound", Cpu(R(3, 6, 40, 2, 30), runnable: 2, cores: 2), [R(2, 6, 40, 2, 30)], [], null, PoolVerdict.Starving, "of backlog" },
        { "a large pool computing with no queue", Cpu(R(3, 48, 0, 150, 60), runnable: 40, cores: 2), [R(2, 48, 0, 150, 60)], [], null, PoolVerdict.CpuSaturated, "40 of 48 pool threads running or waiting for a core" },
        { "a large pool, two workers computing", Cpu(R(3, 48, 0, 150, 60), runnable: 2, cores: 2), [R(2, 48, 0, 150, 60)], [], null, PoolVerdict.Healthy, "queue 0" },
        // Lock contention: most pool threads wait for a lock; it is named before the starvation it causes.
        { "most pool threads wait for a lock", Locks(R(3, 45, 30, 10), 43.5), [R(2, 40, 38, 10)], [I(2.5, InjectionReason.Starvation)], null, PoolVerdict.LockContention, "44 threads waiting for contended locks on average, of 45 pool threads" },
        { "a small pool held by a lock", Locks(R(3, 3, 45, 10), 2.6), [R(2, 3, 45, 10)], [], null, PoolVerdict.LockContention, "queue 45" },
        { "a few lock waits in a starving pool", Locks(R(3, 40, 50, 2), 3), [R(2, 38, 60, 2)], [I(2.2, InjectionReason.Starvation), I(2.8, InjectionReason.Starvation)], null, PoolVerdict.Starving, "added by starvation injection" },
        { "one lock waiter is not contention", Locks(R(3, 2, 0, 400), 1), [R(2, 2, 0, 400)], [], null, PoolVerdict.Healthy, "queue 0" },
        // A pool creating its minimum of 60 threads at once: 8.7 in lock waits for a moment, nothing queued.
        { "lock waits with nothing queued", Locks(R(1.5, 2, 0, 0, 36), 8.7), [R(1, 2, 0, 0)], [], null, PoolVerdict.Healthy, "8.7 threads waiting for contended locks on average" },
        // The same pool while the first 60 requests queue: lock waits and a queue at one sample are not yet contention.
        { "lock waits and a queue at one sample: threads being created", Locks(R(1.5, 2, 58, 0, 36), 8.7), [R(1, 2, 0, 0)], [], null, PoolVerdict.Healthy, "queue 58" },
        { "short queue below the minimum", R(3, 2, 5, 0), [R(2, 2, 3, 0)], [], null, PoolVerdict.Healthy, "queue 5" },
        // Hill climbing alone is never evidence.
        { "hill climbing moves", R(3, 8, 0, 900), [R(2, 6, 0, 800)], [I(2.5, InjectionReason.ClimbingMove), I(2.7, InjectionReason.Warmup)], null, PoolVerdict.Healthy, "queue 0" },
        // After starvation.
        { "just stopped starving", R(10, 40, 0, 300), [R(9, 40, 12, 250)], [], 1.0, PoolVerdict.Recovering, "no starvation evidence for 1.0 s" },
        { "draining a backlog left by starvation", R(10, 40, 30, 100), [R(9, 40, 80, 90)], [], 5.0, PoolVerdict.Recovering, "queue 30 and falling" },
        { "quiet long enough", R(10, 40, 0, 300), [R(9, 40, 0, 300)], [], 5.0, PoolVerdict.Healthy, "queue 0" },
        // The first sample has nothing earlier to compare with.
        { "first sample, empty pool", R(0.5, 0, 0, 0), [], [], null, PoolVerdict.Healthy, "queue 0, completed 0/s, threads 0" },
        // A queue seen at one sample is a pool that has not had its chance to inject (the gate thread's period is
        // 500 ms): the first sample of a watch attached to a loaded service, the first sample of a burst of load.
        // The corpus's healthy catalog-search was once called starving for that one sample (issue 29).
        { "first sample, a queue, no completion counted yet", R(0.5, 2, 40, 0), [], [], null, PoolVerdict.Healthy, "queue 40" },
        { "a queue at one sample only: a burst of load begins", R(3, 2, 40, 5), [R(2.5, 2, 0, 900)], [], null, PoolVerdict.Healthy, "queue 40" },
        { "first sample with a starvation injection is the runtime's word", R(0.5, 3, 40, 2), [], [I(0.3, InjectionReason.Starvation)], null, PoolVerdict.Starving, "added by starvation injection" },
        { "a backlog standing one gate-thread period", R(1.0, 2, 40, 5), [R(0.5, 2, 40, 5)], [], null, PoolVerdict.Starving, "of backlog" },
        { "a backlog standing one 250 ms interval: not yet", R(0.75, 2, 40, 5), [R(0.5, 2, 40, 5)], [], null, PoolVerdict.Healthy, "queue 40" },
    };

    [Theory]
    [MemberData(nameof(Table))]
    public void Judge_Table(string scenario, PoolReading now, PoolReading[] earlier, ThreadPoolInjection[] injections, double? sinceStarving, PoolVerdict expected, string evidence)
    {
        var result = Judge(now, earlier, injections, sinceStarving);
        Assert.True(expected == result.Verdict, $"{scenario}: expected {expected}, got {result.Verdict} ({result.Evidence})");
        Assert.Contains(evidence, result.Evidence, StringComparison.Ordinal);
    }

    [Fact]
    public void Judge_Evidence_SaysCpu()
    {
        var result = Judge(R(3, 4, 94, 2, cpu: 3.4), [R(1, 2, 40, 2)], [I(1.5, InjectionReason.Starvation), I(2.5, InjectionReason.Starvation)]);
        Assert.EndsWith("CPU 3%", result.Evidence, StringComparison.Ordinal);
    }

    [Fact]
    public void Thresholds_NegativeQueueStanding_IsAUsageError() =>
        Assert.Throws<Tplab.Common.TplabException>(() => new VerdictThresholds { QueueStanding = TimeSpan.FromMilliseconds(-1) }.Validated());

    [Fact]
    public void QueueStanding_Zero_JudgesEverySampleOnItsOwn()
    {
        var once = new VerdictWindow(R(0.5, 2, 40, 0), [], [], null);
        Assert.Equal(PoolVerdict.Healthy, VerdictRule.Judge(once, T).Verdict);
        Assert.Equal(PoolVerdict.Starving, VerdictRule.Judge(once, T with { QueueStanding = TimeSpan.Zero }).Verdict);
    }

    [Theory]
    [InlineData(0.25, 10, 80, 1)]
    [InlineData(1, 0, 80, 1)]
    [InlineData(1, 10, 0, 1)]
    [InlineData(1, 10, 80, 0)]
    public void Thresholds_OutOfRange_AreAUsageError(double lookbackSeconds, long queueMin, double lowCpu, double backlog)
    {
        var t = new VerdictThresholds { Lookback = TimeSpan.FromSeconds(lookbackSeconds), QueueMin = queueMin, LowCpuPercent = lowCpu, BacklogSeconds = backlog };
        if (lookbackSeconds == 0.25)
        {
            Assert.Same(t, t.Validated());
            return;
        }
        Assert.Throws<Tplab.Common.TplabException>(() => t.Validated());
    }
}
