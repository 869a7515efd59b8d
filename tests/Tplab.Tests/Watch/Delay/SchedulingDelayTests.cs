using System.Globalization;
using Tplab.Launch;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Delay;
using Xunit.Abstractions;

namespace Tplab.Tests.Watch.Delay;

/// <summary>
/// The scheduling delay measured from a real target's work-item events (30/31) over EventPipe, beside the estimate,
/// on a starving and on a healthy flood.
/// </summary>
[Collection(TestCollections.Watch)]
public sealed class SchedulingDelayTests(DownstreamFixture fixture, ITestOutputHelper output) : IClassFixture<DownstreamFixture>
{
    private const int Concurrency = 60;

    [Fact]
    public async Task Watch_SleepFlood_MeasuresWaitsOfSecondsAndPairsThem()
    {
        var timeline = await WatchFloodAsync("/sleep?ms=1000", TimeSpan.FromSeconds(6));

        var measured = timeline.Samples.Where(s => s.Delay is { Count: > 0 }).ToList();
        Assert.NotEmpty(measured);
        // Sixty requests of a second each on a pool of a few threads: items wait seconds, and the oldest still queued
        // has waited long too.
        Assert.True(measured.Max(s => s.Delay!.P99Ms) > 500, "no wait above 500 ms measured");
        Assert.True(timeline.Samples.Max(s => s.Delay?.OldestWaitingMs ?? 0) > 500, "no long wait in progress seen");
        Assert.Null(timeline.DelayNote);
    }

    [Fact]
    public async Task Watch_DelayFlood_MeasuresShortWaits()
    {
        var timeline = await WatchFloodAsync("/delay?ms=200", TimeSpan.FromSeconds(5));

        var measured = timeline.Samples.Where(s => s.Delay is { Count: > 0 }).ToList();
        Assert.NotEmpty(measured);
        Assert.True(measured.Sum(s => s.Delay!.Count) > 100, "few waits measured");
        // The flood's first burst waits while the pool grows from its minimum; over the whole flood, the median is short.
        var all = measured.Select(s => s.Delay!.Distribution).Aggregate((a, b) => a.Plus(b));
        Assert.True(all.QuantileMs(0.5) < 20, $"median wait {all.QuantileMs(0.5)} ms");
    }

    private async Task<PoolTimeline> WatchFloodAsync(string path, TimeSpan flood)
    {
        await using var target = await fixture.Stack.StartTargetAsync(new ThreadPoolSettings());
        var options = new WatchOptions { Interval = TimeSpan.FromMilliseconds(500), Delay = new DelayOptions { Mode = DelayMode.Continuous } };
        await using var watch = await ThreadPoolWatch.StartAsync(target.ProcessId, options);
        // The session is live before the flood, however long attaching takes on a busy machine: wait for the first
        // sample (as ThreadPoolWatchTests does) rather than a fixed second.
        await Eventually.UntilAsync(() => watch.Latest is not null, TimeSpan.FromSeconds(30), "the first sample");
        await using (Flood.Start(target.Url(path), Concurrency, flood, TimeSpan.FromSeconds(20)))
        {
            await Task.Delay(flood);
        }
        var timeline = await watch.StopAsync();
        foreach (var s in timeline.Samples)
        {
            var d = s.Delay;
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{s.Offset.TotalSeconds:0.0} q={s.QueueLength} done={s.CompletedPerSecond:0}/s est={s.EstimatedDelayMs:0.0}ms measured n={d?.Count} p50={d?.P50Ms:0.00} p99={d?.P99Ms:0.0} max={d?.MaxMs:0.0} unpaired={d?.Unpaired} waiting={d?.Waiting} oldest={d?.OldestWaitingMs:0} cov={d?.CoverageSeconds:0.00} {s.Verdict}"));
        }
        output.WriteLine($"note: {timeline.DelayNote}");
        return timeline;
    }
}
