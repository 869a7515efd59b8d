using Tplab.Blocking;
using Tplab.Diagnose;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Stacks;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Verdicts;
using static Tplab.Tests.Diagnose.Stacks;

namespace Tplab.Tests.Diagnose;

/// <summary>
/// Waits for the framework's own locks (under Task.Delay, HttpClient) are no culprit while the pool never lacked
/// threads, and stay culprits when it did or nobody watched.
/// </summary>
[ParallelSafe]
public sealed class FrameworkLockGateTests
{
    private static readonly IReadOnlyList<StackFrame> TimerLockUnderDelay = Of(
        One("System.Private.CoreLib!System.Threading.Lock.EnterAndGetCurrentThreadId()"),
        One("System.Private.CoreLib!System.Threading.TimerQueueTimer.Change(unsigned int32,unsigned int32)"),
        One("System.Private.CoreLib!System.Threading.Tasks.Task.Delay(unsigned int32,class System.TimeProvider,value class System.Threading.CancellationToken)"),
        One("App!Shop.OrderRepository+<LoadAsync>d__1.MoveNext()"), MvcAction, PoolBottom);

    private static readonly IReadOnlyList<StackFrame> AppLock = Of(
        One("System.Private.CoreLib!System.Threading.Monitor.Enter_Slowpath(class System.Object)"),
        One("App!Shop.Inventory.Reserve(int32)"), MvcAction, PoolBottom);

    [Fact]
    public void Apply_HealthyPool_SetsTheFrameworksLockAsideAndIsClear()
    {
        var gated = FrameworkLockGate.Apply(Diagnose(TimerLockUnderDelay), Pool(PoolVerdict.Healthy, PoolVerdict.CpuSaturated));

        Assert.Equal(DiagnosisVerdict.Clear, gated.Verdict);
        Assert.Empty(gated.Culprits);
        Assert.Equal(0.6, gated.Evidence.FrameworkLockThreads, 3);
    }

    [Fact]
    public void Apply_HealthyPool_KeepsTheAppsOwnLock()
    {
        var gated = FrameworkLockGate.Apply(Diagnose(TimerLockUnderDelay, AppLock), Pool(PoolVerdict.Healthy));

        Assert.Equal(DiagnosisVerdict.Blocked, gated.Verdict);
        Assert.Equal("Shop.Inventory.Reserve", Assert.Single(gated.Culprits).UserFrame!.FullName);
    }

    [Theory]
    [InlineData(PoolVerdict.Starving)]
    [InlineData(PoolVerdict.LockContention)]
    [InlineData(PoolVerdict.Recovering)]
    public void Apply_PoolHeldAtOneSample_KeepsTheFrameworksLockAsACulprit(PoolVerdict once)
    {
        var gated = FrameworkLockGate.Apply(Diagnose(TimerLockUnderDelay), Pool(PoolVerdict.Healthy, once, PoolVerdict.Healthy));

        Assert.Equal(DiagnosisVerdict.Blocked, gated.Verdict);
        Assert.True(Assert.Single(gated.Culprits).FrameworkLock);
        Assert.Equal(0, gated.Evidence.FrameworkLockThreads);
    }

    [Fact]
    public void Apply_NoWatch_KeepsEveryCulprit()
    {
        var diagnosis = Diagnose(TimerLockUnderDelay);

        Assert.Same(diagnosis, FrameworkLockGate.Apply(diagnosis, null));
    }

    private static Diagnosis Diagnose(params IReadOnlyList<StackFrame>[] stacks)
    {
        var grouper = new BlockedStackGrouper(new StackClassifier(), 14);
        var thread = 0;
        foreach (var frames in stacks)
        {
            grouper.Add(new ThreadObservation(++thread, 0, 600, frames, ObservationSource.WaitEvent));
        }
        var (groups, _) = grouper.Complete(TimeSpan.FromSeconds(1), 0.2);
        return new Diagnosis(42, "shop", new Version(10, 0, 1), groups.Count > 0 ? DiagnosisVerdict.Blocked : DiagnosisVerdict.Clear, groups,
            TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), new StackEvidence(1000, 10, 1, 4, 0.6 * stacks.Length, null));
    }

    private static PoolTimeline Pool(params PoolVerdict[] verdicts) =>
        new(42, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(verdicts.Length * 0.5),
            [.. verdicts.Select((v, i) => new ThreadPoolSample(TimeSpan.FromSeconds((i + 1) * 0.5), 3, 0, 40, 20, 60, 0, 10, v, "sample"))],
            [], null, processExited: false);
}
