using System.Diagnostics;
using System.Globalization;
using Tplab.Launch;
using Tplab.Tests.Support;
using Tplab.Tests.Watch;
using Tplab.Watch;
using Tplab.Watch.Verdicts;
using Xunit.Abstractions;

namespace Tplab.Bench.Watch;

/// <summary>
/// The watch benchmark (bench/watch.sh runs it with TPLAB_BENCH=1; skipped otherwise): the target's req/s on /delay
/// with no watch, a 1 s watch and a 0.25 s watch, interleaved in rounds so drift on a shared machine hits all three;
/// then the time from onset to the starving verdict under a /sleep flood.
/// </summary>
public sealed class WatchBenchmark(ITestOutputHelper output)
{
    private const int Concurrency = 64;
    private static readonly TimeSpan Run = TimeSpan.FromSeconds(6);

    // A benchmark, not a test: reported skipped in the test run (it used to pass without running).
    [BenchFact]
    public async Task Bench_WatchOverhead_AndVerdictLatency()
    {
        var rounds = int.Parse(Environment.GetEnvironmentVariable("TPLAB_BENCH_ROUNDS") ?? "3", CultureInfo.InvariantCulture);
        var results = new Dictionary<string, List<double>> { ["none"] = [], ["1s"] = [], ["0.25s"] = [] };
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        await MeasureAsync(target, null); // warm-up: JIT, connections
        for (var round = 0; round < rounds; round++)
        {
            results["none"].Add(await MeasureAsync(target, null));
            results["1s"].Add(await MeasureAsync(target, TimeSpan.FromSeconds(1)));
            results["0.25s"].Add(await MeasureAsync(target, TimeSpan.FromMilliseconds(250)));
        }
        var baseline = results["none"].Average();
        foreach (var (name, values) in results)
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"overhead watch={name}: req/s mean {values.Average():0} (runs {string.Join(" ", values.Select(v => v.ToString("0", CultureInfo.InvariantCulture)))}), ratio to none {values.Average() / baseline:0.000}"));
        }
        for (var i = 0; i < rounds; i++)
        {
            var (fromFlood, fromQueue) = await VerdictLatencyAsync();
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"latency run {i + 1}: starving {fromFlood:0.00} s after the flood began, {fromQueue:0.00} s after the first sample with a queue"));
        }
    }

    private static async Task<double> MeasureAsync(TargetProcess target, TimeSpan? interval)
    {
        await using var watch = interval is { } i ? await ThreadPoolWatch.StartAsync(target.ProcessId, new WatchOptions { Interval = i }) : null;
        await using var flood = Flood.Start(target.Url("/delay?ms=10"), Concurrency, Run, TimeSpan.FromSeconds(10));
        await Task.Delay(TimeSpan.FromSeconds(1));
        var start = flood.Completed;
        var t0 = Stopwatch.GetTimestamp();
        await Task.Delay(Run - TimeSpan.FromSeconds(1.5));
        return (flood.Completed - start) / Stopwatch.GetElapsedTime(t0).TotalSeconds;
    }

    private static async Task<(double FromFlood, double FromQueue)> VerdictLatencyAsync()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        await using var watch = await ThreadPoolWatch.StartAsync(target.ProcessId, new WatchOptions { Interval = TimeSpan.FromMilliseconds(250) });
        // Offsets count from inside StartAsync, a few milliseconds before it returns: close enough at 250 ms samples.
        var watchStarted = Stopwatch.GetTimestamp();
        await Task.Delay(1000);
        var floodAt = Stopwatch.GetElapsedTime(watchStarted);
        await using (Flood.Start(target.Url("/sleep?ms=2000"), 60, TimeSpan.FromSeconds(6), TimeSpan.FromSeconds(20)))
        {
            await Task.Delay(TimeSpan.FromSeconds(6));
        }
        var timeline = await watch.StopAsync();
        var starving = timeline.Samples.First(s => s.Verdict == PoolVerdict.Starving && s.Offset > floodAt).Offset;
        var queue = timeline.Samples.First(s => s.QueueLength > 0 && s.Offset > floodAt).Offset;
        return ((starving - floodAt).TotalSeconds, (starving - queue).TotalSeconds);
    }
}
