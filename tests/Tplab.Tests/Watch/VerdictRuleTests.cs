using Tplab.Watch;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Watch;

/// <summary>The verdict rule as a table: readings and injections in, verdict and evidence out. No process, no clock.</summary>
public sealed class VerdictRuleTests
{
    private static readonly VerdictThresholds T = VerdictThresholds.Default;

    private static PoolReading R(double at, int threads, long queue, double completed, double cpu = 3) =>
        new(TimeSpan.FromSeconds(at), threads, queue, completed, cpu);

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
        { "busy but keeping up", R(3, 8, 20, 5000), [R(2, 8, 25, 5000)], [], null, PoolVerdict.Healthy, "queue 20, completed 5000/s" },
        { "backlog at high CPU is CPU-bound, not starvation", R(3, 8, 200, 50, 97), [R(2, 8, 100, 50, 97)], [], null, PoolVerdict.Healthy, "queue waits for CPU, not for threads" },
        { "short queue below the minimum", R(3, 2, 5, 0), [R(2, 2, 3, 0)], [], null, PoolVerdict.Healthy, "queue 5" },
        // Hill climbing alone is never evidence.
        { "hill climbing moves", R(3, 8, 0, 900), [R(2, 6, 0, 800)], [I(2.5, InjectionReason.ClimbingMove), I(2.7, InjectionReason.Warmup)], null, PoolVerdict.Healthy, "queue 0" },
        // After starvation.
        { "just stopped starving", R(10, 40, 0, 300), [R(9, 40, 12, 250)], [], 1.0, PoolVerdict.Recovering, "no starvation evidence for 1.0 s" },
        { "draining a backlog left by starvation", R(10, 40, 30, 100), [R(9, 40, 80, 90)], [], 5.0, PoolVerdict.Recovering, "queue 30 and falling" },
        { "quiet long enough", R(10, 40, 0, 300), [R(9, 40, 0, 300)], [], 5.0, PoolVerdict.Healthy, "queue 0" },
        // The first sample has nothing earlier to compare with.
        { "first sample, empty pool", R(0.5, 0, 0, 0), [], [], null, PoolVerdict.Healthy, "queue 0, completed 0/s, threads 0" },
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
