using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Summary;
using Tplab.Watch;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Support;

/// <summary>Scenario results made up in memory (no process, no network), for the lab's computing parts.</summary>
internal static class FakeScenarios
{
    /// <summary>A result of <paramref name="id"/> whose requests all took <paramref name="meanMs"/>.</summary>
    public static ScenarioResult Result(string experiment, string id, double meanMs, ScenarioStatus status = ScenarioStatus.Completed,
        int cooperative = 0, int starvation = 0)
    {
        var options = new LoadOptions { Url = new Uri("http://localhost/"), Concurrency = 1, Requests = 4 };
        var aggregator = new SummaryAggregator(options);
        for (var i = 0; i < 4; i++)
        {
            var start = TimeSpan.FromSeconds(i);
            aggregator.Add(new RequestRecord(start, start, start, start + TimeSpan.FromMilliseconds(meanMs), 200, 100, 10, 50, null, 0));
        }
        var injections = Enumerable.Range(0, cooperative).Select(i => new ThreadPoolInjection(TimeSpan.FromSeconds(i), 3 + i, InjectionReason.CooperativeBlocking, 8, 1))
            .Concat(Enumerable.Range(0, starvation).Select(i => new ThreadPoolInjection(TimeSpan.FromSeconds(i), 3 + i, InjectionReason.Starvation, 6, 1)))
            .ToList();
        return new ScenarioResult
        {
            Scenario = new Scenario { Experiment = experiment, Id = id, Variant = id, Load = new LoadProfile { Concurrency = 1, Requests = 4 } },
            Status = status,
            Load = new LoadResult(aggregator.Complete(status != ScenarioStatus.Completed, null), [], DateTimeOffset.UnixEpoch),
            Timeline = cooperative + starvation == 0 ? null
                : new PoolTimeline(1, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(5), [], injections, null, processExited: false),
        };
    }
}
