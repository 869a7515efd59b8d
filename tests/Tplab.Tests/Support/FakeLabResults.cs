using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Summary;
using Tplab.Launch;
using Tplab.Watch;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Support;

/// <summary>Hand-made scenario results (no processes) for the report and terminal renderers: a starving blocking run and a healthy async one.</summary>
internal static class FakeLabResults
{
    public static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    public static Experiment Experiment(params Scenario[] scenarios) => new()
    {
        Name = "ab-100",
        Title = "ab -n 100 -c 100 against a handler that waits 1 s",
        Seeds = ["000_951daac243d3f4b3.txt"],
        Scenarios = scenarios,
        Scaling = "quick: 40 requests, 40 concurrent",
        Lessons = [new Lesson("sleep vs sleep with min 100", "sleep", "sleep-min100")],
    };

    public static Scenario Scenario(string id, string variant, int? minThreads = null) => new()
    {
        Experiment = "ab-100",
        Id = id,
        Variant = variant,
        ThreadPool = minThreads is null ? ThreadPoolSettings.Default : new ThreadPoolSettings { MinThreads = minThreads },
        Load = new LoadProfile { Concurrency = 40, Requests = 40 },
    };

    /// <summary>
    /// <paramref name="requests"/> requests sent at once; request i waits <paramref name="waitedStepMs"/> × i for a thread
    /// (the staircase of thread injection), then runs the handler for 1 s. The last <paramref name="timedOut"/> end in a timeout.
    /// </summary>
    public static ScenarioResult Result(Scenario scenario, int requests, double waitedStepMs, int timedOut = 0, bool starving = true)
    {
        var records = new List<RequestRecord>();
        for (var i = 0; i < requests; i++)
        {
            var send = TimeSpan.FromMilliseconds(i * 0.2);
            var handlerStart = send + TimeSpan.FromMilliseconds(0.5 + (waitedStepMs * i));
            var handlerEnd = handlerStart + TimeSpan.FromSeconds(1);
            var failed = i >= requests - timedOut;
            var end = failed ? send + TimeSpan.FromSeconds(30) : handlerEnd + TimeSpan.FromMilliseconds(0.4);
            records.Add(failed
                ? new RequestRecord(send, send, end, end, 0, 0, 0, 80, "timeout after 30 s", i)
                : new RequestRecord(send, send, end, end, 200, 150, 20, 80, null, i, HandlerStart: handlerStart, HandlerEnd: handlerEnd));
        }
        var aggregator = new SummaryAggregator(new LoadOptions { Url = new Uri("http://127.0.0.1:5000/" + scenario.Variant), Concurrency = requests, Requests = requests });
        foreach (var r in records.OrderBy(r => r.End))
        {
            aggregator.Add(r);
        }
        var load = new LoadResult(aggregator.Complete(interrupted: false, serverSoftware: "Kestrel"), [.. records.OrderBy(r => r.End)], Start);
        return new ScenarioResult
        {
            Scenario = scenario,
            Status = ScenarioStatus.Completed,
            Load = load,
            Timeline = Timeline(starving),
            WatchStartedAt = Start.AddSeconds(-1),
        };
    }

    private static PoolTimeline Timeline(bool starving)
    {
        var samples = new List<ThreadPoolSample>();
        var injections = new List<ThreadPoolInjection>();
        for (var s = 0; s < 12; s++)
        {
            var threads = starving ? 2 + s : 3;
            var queue = starving ? Math.Max(0, 38 - (3 * s)) : 0;
            samples.Add(new ThreadPoolSample(TimeSpan.FromSeconds(s * 0.5), threads, queue, starving ? 2 : 40, threads + 14, 3.5, 0, 10,
                starving && s > 1 ? PoolVerdict.Starving : PoolVerdict.Healthy, "sample"));
            if (starving && s > 1)
            {
                injections.Add(new ThreadPoolInjection(TimeSpan.FromSeconds((s * 0.5) - 0.1), threads, InjectionReason.Starvation, 6, 1.5));
            }
        }
        if (starving)
        {
            injections.Add(new ThreadPoolInjection(TimeSpan.FromSeconds(5.2), 14, InjectionReason.Warmup, 0, 0));
        }
        return new PoolTimeline(4242, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(6), samples, [.. injections.OrderBy(i => i.Offset)], limits: null, processExited: false);
    }
}
