using System.Net.Http.Json;
using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Verdicts;
using Xunit.Abstractions;

namespace Tplab.Tests.Launch;

/// <summary>Thread-pool settings reach the target's runtime in the form users apply them, and take effect.</summary>
[Collection(TestCollections.Watch)]
public sealed class ThreadPoolKnobTests(DownstreamFixture fixture, ITestOutputHelper output) : IClassFixture<DownstreamFixture>
{
    private static readonly HttpClient Http = new();

    private static async Task<JsonElement> ThreadsAsync(ThreadPoolSettings settings)
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions { ThreadPool = settings });
        return (await Http.GetFromJsonAsync<JsonElement>(target.Url("/threads"))).Clone();
    }

    private static ThreadPoolSettings Knob(string name, string value) => new() { Knobs = [new(name, value)] };

    [Fact]
    public async Task MinThreads_IsSetInCodeAtStartUp()
    {
        var threads = await ThreadsAsync(new ThreadPoolSettings { MinThreads = 100 });
        Assert.Equal(100, threads.GetProperty("minWorkerThreads").GetInt32());
    }

    [Fact]
    public async Task MinThreadsKnob_InRuntimeConfig_RaisesTheMinimum()
    {
        var threads = await ThreadsAsync(Knob("System.Threading.ThreadPool.MinThreads", "64"));
        Assert.Equal(64, threads.GetProperty("minWorkerThreads").GetInt32());
        Assert.Equal("64", threads.GetProperty("knobs").GetProperty("System.Threading.ThreadPool.MinThreads").GetString());
    }

    [Fact]
    public async Task MaxThreadsKnob_InRuntimeConfig_LowersTheMaximum()
    {
        var threads = await ThreadsAsync(Knob("System.Threading.ThreadPool.MaxThreads", "40"));
        Assert.Equal(40, threads.GetProperty("maxWorkerThreads").GetInt32());
    }

    // Not that AppContext echoes the value: that the runtime's pool behaves differently, seen in its own events.
    // The control is the same flood without the knob: ThreadPoolWatchTests.HttpResult_Flooded_InjectsForCooperativeBlocking
    // sees tens of CooperativeBlocking injections for it.
    [Fact]
    public async Task CooperativeBlockingOff_TheRuntimeStopsCompensatingBlockedWaits()
    {
        var name = "System.Threading.ThreadPool.Blocking.CooperativeBlocking";
        var (timeline, threads) = await WatchFloodAsync("/http-result?ms=100", Knob(name, "false"), concurrency: 10, seconds: 2);
        Assert.Equal("false", threads.GetProperty("knobs").GetProperty(name).GetString());
        Assert.Equal(0, timeline.InjectionCount(InjectionReason.CooperativeBlocking));
        Assert.True(timeline.QueuePeak > 0, "the flood never blocked the pool: the test saw nothing");
    }

    [Fact]
    public async Task HillClimbingDisabled_TheRuntimeMakesNoHillClimbingMoves()
    {
        var (on, _) = await WatchFloodAsync("/delay?ms=5", new ThreadPoolSettings());
        var (off, threads) = await WatchFloodAsync("/delay?ms=5", Knob("System.Threading.ThreadPool.HillClimbing.Disable", "true"));
        Assert.Equal("true", threads.GetProperty("knobs").GetProperty("System.Threading.ThreadPool.HillClimbing.Disable").GetString());
        Assert.True(HillClimbing(on) > 0, "the default pool made no hill-climbing move under the flood: the test saw nothing");
        Assert.Equal(0, HillClimbing(off));
    }

    private static int HillClimbing(PoolTimeline t) => t.Injections.Count(i => i.Reason is >= InjectionReason.Warmup and <= InjectionReason.Stabilizing);

    private async Task<(PoolTimeline Timeline, JsonElement Threads)> WatchFloodAsync(string path, ThreadPoolSettings settings, int concurrency = 40, int seconds = 3)
    {
        await using var target = await fixture.Stack.StartTargetAsync(settings);
        var threads = (await Http.GetFromJsonAsync<JsonElement>(target.Url("/threads"))).Clone();
        await using var watch = await ThreadPoolWatch.StartAsync(target.ProcessId, new WatchOptions { Interval = TimeSpan.FromMilliseconds(500) });
        await using (Flood.Start(target.Url(path), concurrency, TimeSpan.FromSeconds(seconds), TimeSpan.FromSeconds(20)))
        {
            await Task.Delay(TimeSpan.FromSeconds(seconds));
        }
        var timeline = await watch.StopAsync();
        output.WriteLine($"{path}: {string.Join(", ", timeline.InjectionsByReason.Select(kv => $"{kv.Key} {kv.Value}"))}, queue peak {timeline.QueuePeak}");
        return (timeline, threads);
    }

    [Fact]
    public async Task EnvironmentKnob_ForceMinWorkerThreads_IsReadAsHex()
    {
        // DOTNET_ThreadPool_ForceMinWorkerThreads is parsed as hexadecimal, like every DOTNET_ numeric setting: 0x20 = 32.
        var threads = await ThreadsAsync(Knob("DOTNET_ThreadPool_ForceMinWorkerThreads", "20"));
        Assert.Equal(32, threads.GetProperty("minWorkerThreads").GetInt32());
    }

    [Theory]
    [InlineData("NoEquals")]
    [InlineData("=5")]
    [InlineData("Name=")]
    [InlineData("Bad Name=1")]
    public void ParseKnobs_Malformed_IsAUsageErrorNamingIt(string knob)
    {
        var error = Assert.Throws<TplabException>(() => ThreadPoolSettings.ParseKnobs([knob]));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(knob, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ParseKnobs_SplitsRuntimeConfigAndEnvironmentForms()
    {
        var settings = new ThreadPoolSettings
        {
            Knobs = ThreadPoolSettings.ParseKnobs(["System.Threading.ThreadPool.MinThreads=100", "DOTNET_ThreadPool_ForceMinWorkerThreads=64"]),
        };
        Assert.Equal("System.Threading.ThreadPool.MinThreads", Assert.Single(settings.RuntimeConfigKnobs).Key);
        Assert.Equal("DOTNET_ThreadPool_ForceMinWorkerThreads", Assert.Single(settings.EnvironmentKnobs).Key);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    [InlineData(40000)]
    public void Validated_MinThreadsOutOfRange_IsAUsageError(int min)
    {
        var error = Assert.Throws<TplabException>(() => new ThreadPoolSettings { MinThreads = min }.Validated());
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
    }
}
