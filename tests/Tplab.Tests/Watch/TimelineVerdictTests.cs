using Tplab.Watch;
using Tplab.Watch.Verdicts;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>The verdict of a whole watch from its samples' verdicts, as a table.</summary>
[ParallelSafe]
public sealed class TimelineVerdictTests
{
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(500);

    // One letter per sample, 0.5 s apart: h healthy, s starving, r recovering, l lock contention, c CPU saturated.
    [Theory]
    [InlineData("hhhhhh", PoolVerdict.Healthy, "no starving sample")]
    [InlineData("hsssss", PoolVerdict.Starving, "still starving at the end")]
    [InlineData("hsssssr", PoolVerdict.Starving, "4 of the last 5 samples, recovering at the very end")]
    [InlineData("sssrrhhhh", PoolVerdict.Recovering, "starving in 3 of 9 samples")]
    [InlineData("hllll", PoolVerdict.LockContention, "still lock-contention at the end")]
    [InlineData("hcccc", PoolVerdict.CpuSaturated, "still cpu-saturated at the end")]
    [InlineData("cchhhhh", PoolVerdict.Healthy, "cpu-saturated in 2 samples")]
    [InlineData("sslllll", PoolVerdict.LockContention, "lock-contention in 5 of 7 samples")]
    [InlineData("", PoolVerdict.Healthy, "no sample with the runtime's counters taken")]
    public void Judge_SampleVerdicts_GiveTheWatchVerdict(string verdicts, PoolVerdict expected, string evidence)
    {
        var samples = verdicts.Select((v, i) => Sample(i, v switch
        {
            's' => PoolVerdict.Starving,
            'r' => PoolVerdict.Recovering,
            'l' => PoolVerdict.LockContention,
            'c' => PoolVerdict.CpuSaturated,
            _ => PoolVerdict.Healthy,
        })).ToList();

        var result = TimelineVerdict.Judge(samples, [], Interval);

        Assert.True(expected == result.Verdict, $"expected {expected}, got {result.Verdict} ({result.Evidence})");
        Assert.Contains(evidence, result.Evidence, StringComparison.Ordinal);
    }

    [Fact]
    public void Judge_FirstSample_StartsTheThreadFigures()
    {
        var result = TimelineVerdict.Judge([Sample(0, PoolVerdict.Starving, threads: 3), Sample(1, PoolVerdict.Starving, threads: 56)], [], Interval);

        Assert.Contains("threads 3 → 56", result.Evidence, StringComparison.Ordinal);
    }

    private static ThreadPoolSample Sample(int index, PoolVerdict verdict, int threads = 4) =>
        new(TimeSpan.FromMilliseconds(500 * (index + 1)), threads, 20, 5, threads + 20, 10, 0, 100, verdict, verdict.ToWord());
}
