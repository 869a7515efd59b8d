using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Target;

/// <summary>
/// Every route of the real target process, against a real downstream and a real PostgreSQL: the routes' answers from one
/// target the class shares; the pool's counters, unreachable dependencies and timeouts each from a target of their own.
/// </summary>
public sealed class TargetRoutesTests(StackFixture fixture) : IClassFixture<StackFixture>
{
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(30) };

    [Theory]
    // in-process waits (seeds 000, 002, 004)
    [InlineData("sleep")]
    [InlineData("delay")]
    [InlineData("task-run-sleep")]
    // downstream calls (seeds 000, 001)
    [InlineData("http-result")]
    [InlineData("http-async")]
    // database waits (seed 003)
    [InlineData("db-sync")]
    [InlineData("db-async-sync-call")]
    [InlineData("db-task-run")]
    [InlineData("db-wait")]
    [InlineData("db-async")]
    public async Task Route_AnswersOkAfterAtLeastItsWait(string route)
    {
        Assert.Null(fixture.Stack.DatabaseUnavailable);
        var target = await fixture.SharedTargetAsync();

        var watch = Stopwatch.StartNew();
        using var response = await Http.GetAsync(target.Url($"/{route}?ms=300"));
        watch.Stop();

        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{route}: {(int)response.StatusCode} {body}");
        // .NET timers tick in milliseconds and may fire a little early, hence the 5 ms of slack.
        Assert.True(watch.ElapsedMilliseconds >= 295, $"{route} answered in {watch.ElapsedMilliseconds} ms");
        Assert.Contains($"\"variant\":\"{route}\"", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Route_WithoutMs_WaitsTheDefaultSecond()
    {
        var target = await fixture.SharedTargetAsync();
        var watch = Stopwatch.StartNew();
        using var response = await Http.GetAsync(target.Url("/delay"));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True(watch.ElapsedMilliseconds >= 995, $"answered in {watch.ElapsedMilliseconds} ms");
    }

    [Theory]
    [InlineData("-1", "must not be negative")]
    [InlineData("abc", "whole number")]
    [InlineData("1.5", "whole number")]
    [InlineData("600001", "at most 600000")]
    public async Task Route_BadMs_Answers400WithOneLineReason(string ms, string reason)
    {
        var target = await fixture.SharedTargetAsync();
        using var response = await Http.GetAsync(target.Url($"/sleep?ms={ms}"));
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains(reason, body, StringComparison.Ordinal);
        Assert.Single(body.TrimEnd('\n').Split('\n'));
    }

    [Theory]
    [InlineData("http-result")]
    [InlineData("http-async")]
    public async Task HttpRoute_DownstreamUnreachable_Answers502(string route)
    {
        // Bound and never listening for the whole test: connections are refused.
        using var refusing = Ports.Refusing();
        var closed = new Uri($"http://127.0.0.1:{refusing}/");
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions { Downstream = closed, RequestTimeout = TimeSpan.FromSeconds(5) });
        var watch = Stopwatch.StartNew();
        using var response = await Http.GetAsync(target.Url($"/{route}?ms=10"));
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.BadGateway, response.StatusCode);
        Assert.StartsWith("downstream unreachable", body, StringComparison.Ordinal);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(6), $"took {watch.Elapsed}");
    }

    [Fact]
    public async Task HttpRoute_DownstreamSlowerThanTimeout_Answers504WithinTimeout()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions
        {
            Downstream = fixture.Stack.Downstream,
            RequestTimeout = TimeSpan.FromSeconds(1),
        });
        var watch = Stopwatch.StartNew();
        using var response = await Http.GetAsync(target.Url("/http-async?ms=5000"));
        Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(4), $"took {watch.Elapsed}");
    }

    [Theory]
    [InlineData("db-sync")]
    [InlineData("db-async")]
    [InlineData("db-wait")]
    public async Task DbRoute_DatabaseUnreachable_Answers503(string route)
    {
        var nowhere = $"Host=/tmp/tplab-no-such-db-{Guid.NewGuid():N};Username=x;Timeout=2";
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions { ConnectionString = nowhere });
        using var response = await Http.GetAsync(target.Url($"/{route}?ms=10"));
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.StartsWith("database unreachable", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task DbRoute_NoDatabaseConfigured_Answers503SayingHowToGetOne()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        using var response = await Http.GetAsync(target.Url("/db-sync?ms=10"));
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Contains("--pg", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Threads_ReportsThePoolAndTheProcess()
    {
        var target = await fixture.SharedTargetAsync();
        using var doc = JsonDocument.Parse(await Http.GetStringAsync(target.Url("/threads")));
        var root = doc.RootElement;
        Assert.Equal(target.ProcessId, root.GetProperty("processId").GetInt32());
        Assert.True(root.GetProperty("osThreadCount").GetInt32() > 1);
        Assert.True(root.GetProperty("threadPoolThreadCount").GetInt32() >= 1);
        Assert.Equal(Environment.ProcessorCount, root.GetProperty("minWorkerThreads").GetInt32());
        Assert.Equal(Environment.ProcessorCount, root.GetProperty("processorCount").GetInt32());
        Assert.StartsWith(".NET ", root.GetProperty("runtimeVersion").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Threads_CountsCompletedWork_AndWorkQueuedBehindBlockedThreads()
    {
        await using var target = await fixture.Stack.StartTargetAsync(ThreadPoolSettings.Default);
        static long Read(JsonDocument d, string name) => d.RootElement.GetProperty(name).GetInt64();
        using var before = JsonDocument.Parse(await Http.GetStringAsync(target.Url("/threads")));
        for (var i = 0; i < 20; i++)
        {
            using var r = await Http.GetAsync(target.Url("/delay?ms=0"));
        }
        using var after = JsonDocument.Parse(await Http.GetStringAsync(target.Url("/threads")));
        // every request runs at least one work item on the pool
        Assert.True(Read(after, "completedWorkItemCount") - Read(before, "completedWorkItemCount") >= 20);

        // 30 handlers sleeping on a pool of the core count: work waits in the queue, and /threads (queued too) sees it
        await using (Flood.Start(target.Url("/sleep?ms=100"), 30, TimeSpan.FromSeconds(4)))
        {
            // Read often, for the whole flood: a reading runs on the pool itself, and on a busy machine six of them
            // 400 ms apart all fell in moments when the grown pool had just drained its queue (a clean-clone CI run).
            var seen = new List<string>();
            for (var i = 0; i < 25; i++)
            {
                await Task.Delay(150);
                using var starved = JsonDocument.Parse(await Http.GetStringAsync(target.Url("/threads")));
                seen.Add(starved.RootElement.ToString());
                if (Read(starved, "pendingWorkItemCount") > 0)
                {
                    return;
                }
            }
            Assert.Fail("no reading showed queued work: " + string.Join(" | ", seen));
        }
    }
}
