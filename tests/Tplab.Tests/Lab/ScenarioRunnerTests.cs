using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Launch;
using Tplab.Tests.Support;
using Tplab.Watch;

namespace Tplab.Tests.Lab;

/// <summary>A scenario cleans up after itself in every path: the culprit hunt stopped, the EventPipe watch closed.</summary>
[Collection(TestCollections.Lab)]
public sealed class ScenarioRunnerTests
{
    [Fact]
    public async Task LoadThatThrows_StopsTheHunt_AndClosesTheWatch()
    {
        await using var stack = await TargetStack.StartAsync(new TargetStackOptions { Database = false });
        ThreadPoolWatch? watched = null;
        var stopLooking = CancellationToken.None;
        var runner = new ScenarioRunner(new LabOptions { WatchInterval = TimeSpan.FromMilliseconds(250) }, new NullLabObserver())
        {
            Hunt = (_, watch, stop, _) =>
            {
                (watched, stopLooking) = (watch, stop);
                return Task.FromResult(HuntResult.None(null));
            },
        };
        // Concurrency 0 fails only the load engine's own validation: the load throws after the watch began.
        var scenario = new Scenario { Experiment = "t", Id = "bad", Variant = "delay", WaitMs = 0, Load = new LoadProfile { Concurrency = 0, Requests = 1 } };

        await Assert.ThrowsAsync<TplabException>(() => runner.RunAsync(scenario, stack, CancellationToken.None));

        Assert.NotNull(watched);
        Assert.True(stopLooking.IsCancellationRequested, "the hunt was left waiting for a starving sample");
        // A stopped watch completes its record stream; one left open never does.
        var drained = Task.Run(async () => { await foreach (var _ in watched.ReadAllAsync()) { } });
        Assert.Same(drained, await Task.WhenAny(drained, Task.Delay(TimeSpan.FromSeconds(10))));
    }
}
