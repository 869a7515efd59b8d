using Tplab.Target;
using Tplab.Tests.Support;
using Tplab.Watch;
using Xunit.Abstractions;

namespace Tplab.Tests.Watch;

public sealed class WatchSmokeTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData("/sleep?ms=1000", 0)]
    [InlineData("/delay?ms=1000", 0)]
    [InlineData("/http-result?ms=1000", 0)]
    [InlineData("/sleep?ms=1000", 60)]
    public async Task Smoke(string path, int min)
    {
        await using var stack = await TargetStack.StartAsync(new TargetStackOptions { Database = false });
        await using var target = await stack.StartTargetAsync(new ThreadPoolSettings { MinThreads = min == 0 ? null : min });
        await using var watch = await ThreadPoolWatch.StartAsync(target.ProcessId, new WatchOptions { Interval = TimeSpan.FromMilliseconds(500) });
        await Task.Delay(1000);
        var flood = Flood.Start(target.Url(path), 60, TimeSpan.FromSeconds(8));
        for (var i = 0; i < 16; i++) { await Task.Delay(500); output.WriteLine($"flood ok={flood.Completed} failed={flood.Failed} latest={watch.Latest?.CompletedPerSecond}"); }
        await flood.DisposeAsync();
        var t = await watch.StopAsync();
        foreach (var s in t.Samples) output.WriteLine($"{s.Offset.TotalSeconds:0.00} thr={s.ThreadCount} q={s.QueueLength} done={s.CompletedPerSecond:0} os={s.OsThreads} cpu={s.CpuPercent:0} age={s.CountersAgeMs:0} {s.Verdict} {s.Evidence}");
        foreach (var i in t.Injections) output.WriteLine($"INJ {i.Offset.TotalSeconds:0.00} {i.NewThreadCount} {i.ReasonName} {i.AverageThroughput:0.0}");
        output.WriteLine($"{t.Verdict}: {t.Evidence}");
    }
}
