using Tplab.Lab.Experiments;
using Tplab.Lab.Findings;
using Tplab.Lab.Running;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Summary;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>Each static finding of a plan judged against what its scenario's run saw.</summary>
[ParallelSafe]
public sealed class FindingVerdictsTests
{
    private static readonly FindingCheck Sleep = new("sleep", "GET /orders/{id:int}", "Orders.LegacyOrderStore.RoundTrip", "Thread.Sleep", "error", "OrderService.cs:55");

    private static Scenario Scenario(string id, bool enabled = true, string method = "GET") => new()
    {
        Experiment = "scan-orders", Id = id, Enabled = enabled, Checks = [Sleep],
        Requests = [new RequestSpec(method, "/orders/1", [], ReadOnlyMemory<byte>.Empty)], Load = new LoadProfile { Concurrency = 4, Requests = 4 },
    };

    // Four requests answered with these statuses (0: no answer, connection refused).
    private static ScenarioResult Ran(Scenario scenario, int[] statuses, params Culprit[] culprits)
    {
        var aggregator = new SummaryAggregator(new LoadOptions { Url = new Uri("http://127.0.0.1:5000/"), Concurrency = 4, Requests = statuses.Length });
        for (var i = 0; i < statuses.Length; i++)
        {
            var t = TimeSpan.FromMilliseconds(10 * i);
            aggregator.Add(new RequestRecord(t, t, t + TimeSpan.FromMilliseconds(5), t + TimeSpan.FromMilliseconds(5), statuses[i], statuses[i] == 0 ? 0 : 100, 0, 50,
                statuses[i] == 0 ? "Connection refused" : null, i));
        }
        return new ScenarioResult
        {
            Scenario = scenario, Status = ScenarioStatus.Completed, Culprits = culprits,
            Load = new LoadResult(aggregator.Complete(interrupted: false, null), [], DateTimeOffset.UnixEpoch),
        };
    }

    private static IReadOnlyList<FindingResult> Judge(Scenario[] scenarios, Scenario[] off, FindingCheck[] watch, params ScenarioResult[] runs) =>
        FindingVerdicts.Of(new ExperimentResult(new Experiment
        {
            Name = "scan-orders", Title = "t", Seeds = [], Scaling = "s", Scenarios = scenarios, SwitchedOff = off, Watch = watch,
        }, runs, [], []));

    private static Culprit Culprit(string frame, string call, double threads = 4) => new(call, frame, threads, 1, [], "advice");

    [Theory]
    // diagnose named the same method and call (nested types are '+' at run time)
    [InlineData("Orders.LegacyOrderStore.RoundTrip", "Thread.Sleep", new[] { 200, 200, 200, 200 }, FindingState.Confirmed, "diagnose named Thread.Sleep in Orders.LegacyOrderStore.RoundTrip (4 pool threads held)")]
    [InlineData("Orders+LegacyOrderStore.RoundTrip", "Thread.Sleep", new[] { 200, 200, 200, 200 }, FindingState.Confirmed, "diagnose named")]
    // another culprit: the finding is not what starved the pool under that load
    [InlineData("Orders.Other.Wait", "Task.Wait", new[] { 200, 200, 200, 200 }, FindingState.NotSeen, "diagnose named Task.Wait in Orders.Other.Wait instead")]
    [InlineData("Orders.LegacyOrderStore.RoundTrip", "Task.Result", new[] { 200, 200, 200, 200 }, FindingState.NotSeen, "instead")]
    // no culprit, and no answer was a success: why it was not reached
    [InlineData(null, null, new[] { 404, 404, 404, 404 }, FindingState.NotReached, "not reached: 404 Not Found on 4 of 4")]
    [InlineData(null, null, new[] { 401, 401, 503, 0 }, FindingState.NotReached, "not reached: 401 Unauthorized on 2 of 4; 503 Service Unavailable on 1 of 4; Connection refused on 1 of 4")]
    // some answers succeeded: reached, not seen
    [InlineData(null, null, new[] { 404, 200, 404, 404 }, FindingState.NotSeen, "not seen under 4 users, 4 requests: the pool could not be watched")]
    public void Of_ScenarioRan_JudgesItsFinding(string? frame, string? call, int[] statuses, FindingState state, string reason)
    {
        var scenario = Scenario("get-orders-id");
        var culprits = frame is null ? [] : new[] { Culprit(frame, call!) };

        var result = Assert.Single(Judge([scenario], [], [], Ran(scenario, statuses, culprits)));

        Assert.Equal(state, result.State);
        Assert.Contains(reason, result.Reason, StringComparison.Ordinal);
        Assert.Equal(state == FindingState.Confirmed, result.Culprit is not null);
        Assert.NotNull(result.MeanMs);
    }

    [Fact]
    public void Of_SwitchedOffWrite_IsNotRunAndSaysHowToRunIt()
    {
        var result = Assert.Single(Judge([Scenario("get")], [Scenario("post-orders", enabled: false, method: "POST")], [], Ran(Scenario("get"), [200])),
            r => r.Scenario == "post-orders");

        Assert.Equal(FindingState.NotRun, result.State);
        Assert.Contains("it sends a write (POST): tplab scan --plan-writes", result.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_WatchedFinding_ConfirmedByAnyScenariosCulpritElseNotSeen()
    {
        var timer = new FindingCheck("sync-over-async", "timer Orders.Sync.Tick", "Orders.Sync.Tick", "Task.Wait", "warning", null);
        var get = Scenario("get");

        var seen = Judge([get], [], [timer], Ran(get, [200], Culprit("Orders.Sync.Tick", "Task.Wait", 2))).Single(r => r.Watched);
        var unseen = Judge([get], [], [timer], Ran(get, [200])).Single(r => r.Watched);

        Assert.Equal((FindingState.Confirmed, "get"), (seen.State, seen.Scenario));
        Assert.Equal(FindingState.NotSeen, unseen.State);
        Assert.Contains("watched under 1 scenario(s)' load", unseen.Reason, StringComparison.Ordinal);
    }
}
