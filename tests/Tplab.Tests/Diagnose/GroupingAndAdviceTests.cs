using System.Globalization;
using Tplab.Blocking;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Output;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;
using Tplab.Diagnose;
using static Tplab.Tests.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>Held time, grouping, ranking, advice and output on hand-built observations.</summary>
[ParallelSafe]
public sealed class GroupingAndAdviceTests
{
    private static readonly IReadOnlyList<StackFrame> SleepInAction =
        Of(One(Sleep), One("App!Shop.Api.Slow()"), MvcAction, PoolBottom);

    private static readonly IReadOnlyList<StackFrame> ResultInAction =
        Of(ResultWait, One("App!Shop.Api.Fetch()"), MvcAction, PoolBottom);

    [Fact]
    public void Observe_SamplesInsideAWaitEvent_AreNotCountedTwice()
    {
        // Thread 7 waits 100 ms (wait event) and is sampled every 1 ms meanwhile.
        var samples = Enumerable.Range(0, 100).Select(i => new RawSample(7, 10 + i, External: true, ResultInAction)).ToList();
        var waits = new[] { new RawWait(7, 10, 110, ResultInAction) };

        var held = HeldTime.Observe(samples, waits, 0, 200);

        Assert.Single(held);
        Assert.Equal(100, held[0].HeldMs, precision: 6);
        Assert.Equal(ObservationSource.WaitEvent, held[0].Source);
    }

    [Fact]
    public void Observe_ManagedSamples_AreNotBlocked()
    {
        var samples = new[] { new RawSample(1, 1, External: false, SleepInAction), new RawSample(1, 2, External: true, SleepInAction) };

        var held = HeldTime.Observe(samples, [], 0, 3);

        Assert.Single(held);
    }

    [Fact]
    public void Grouper_TwoCulprits_RankedByThreadsHeldWithShares()
    {
        var grouper = new BlockedStackGrouper(new StackClassifier(), 14);
        // 1 s capture: three threads sleep the whole second, one thread waits on .Result for half of it.
        for (var t = 1; t <= 3; t++)
        {
            grouper.Add(new ThreadObservation(t, 0, 1000, SleepInAction, ObservationSource.Sample));
        }
        grouper.Add(new ThreadObservation(4, 0, 500, ResultInAction, ObservationSource.WaitEvent));

        var (groups, summary) = grouper.Complete(TimeSpan.FromSeconds(1), minimumThreads: 0.2);

        Assert.Equal(["Shop.Api.Slow", "Shop.Api.Fetch"], groups.Select(g => g.UserFrame!.FullName));
        Assert.Equal(3.0, groups[0].Threads, precision: 6);
        Assert.Equal(3, groups[0].DistinctThreads);
        Assert.Equal(3000.0 / 3500, groups[0].Share, precision: 6);
        Assert.Equal(0.5, groups[1].Threads, precision: 6);
        Assert.Equal(3.5, summary.BlockedThreads, precision: 6);
    }

    [Fact]
    public void Grouper_CompletedTwiceAndFedBetween_GivesTheSameAnswerThenCountsTheNew()
    {
        var grouper = new BlockedStackGrouper(new StackClassifier(), 14);
        grouper.Add(new ThreadObservation(1, 0, 800, SleepInAction, ObservationSource.Sample), new Endpoint("GET", "/slow", null));
        grouper.Add(new ThreadObservation(2, 0, 400, ResultInAction, ObservationSource.WaitEvent));

        var first = grouper.Complete(TimeSpan.FromSeconds(1), 0.2);
        var second = grouper.Complete(TimeSpan.FromSeconds(1), 0.2);

        Assert.Equal(Describe(first.Groups), Describe(second.Groups));
        Assert.Equal(first.Summary, second.Summary);
        grouper.Add(new ThreadObservation(3, 0, 1000, SleepInAction, ObservationSource.Sample));
        Assert.Equal(1.8, grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups[0].Threads, precision: 6);

        static string[] Describe(IReadOnlyList<BlockedStackGroup> groups) =>
            [.. groups.Select(g => string.Create(CultureInfo.InvariantCulture, $"{g.BlockingCall.Name} {g.UserFrame?.FullName} {g.Threads} {g.DistinctThreads} {g.Endpoint}"))];
    }

    [Fact]
    public void Grouper_BelowMinimumThreads_IsNotACulprit()
    {
        var grouper = new BlockedStackGrouper(new StackClassifier(), 14);
        grouper.Add(new ThreadObservation(1, 0, 50, SleepInAction, ObservationSource.Sample));

        var (groups, summary) = grouper.Complete(TimeSpan.FromSeconds(1), minimumThreads: 0.2);

        Assert.Empty(groups);
        Assert.Equal(0.05, summary.BlockedThreads, precision: 6);
    }

    [Theory]
    // Thread.Sleep: in a request path, and moved into Task.Run
    [InlineData("sleep", "await Task.Delay")]
    [InlineData("task-run-sleep", "only moves the sleep to another pool thread")]
    // sync over async
    [InlineData("result", "`.Result` blocks the pool thread")]
    [InlineData("wait", "`.Wait()` blocks the pool thread")]
    // synchronous database calls: plain, in an async method, in Task.Run
    [InlineData("db", "await ...ExecuteNonQueryAsync(...)")]
    [InlineData("db-async-method", "is async but calls the synchronous NpgsqlCommand.ExecuteNonQuery")]
    [InlineData("db-task-run", "still holds a pool thread for the whole database call")]
    public void Advice_PerBlockingCallAndContext_SaysWhatToChange(string shape, string expected)
    {
        var stack = shape switch
        {
            "sleep" => Of(One(Sleep), One("App!Shop.Api.Slow()"), MvcAction, PoolBottom),
            "task-run-sleep" => Of(One(Sleep), One("App!Shop.Api+<>c.<Slow>b__1_0()"), TaskRunBottom, PoolBottom),
            "result" => ResultInAction,
            "wait" => Of(TaskWait, One("App!Shop.Api.Fetch()"), MvcAction, PoolBottom),
            "db" => Of(NpgsqlExecuteNonQuery, One("App!Shop.Api.Save()"), MvcAction, PoolBottom),
            "db-async-method" => Of(NpgsqlExecuteNonQuery, One("App!Shop.Api+<Save>d__3.MoveNext()"), MvcAction, PoolBottom),
            _ => Of(NpgsqlExecuteNonQuery, One("App!Shop.Api+<>c__DisplayClass2_0.<Save>b__0()"), TaskRunBottom, PoolBottom),
        };

        var advice = new StackClassifier().Classify(stack)!.Advice();

        Assert.Contains(expected, advice, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(8, 0, true)]
    [InlineData(9, 0, false)]
    [InlineData(10, 0, false)]
    public void FallbackOf_RuntimesBeforeNet9_SayTheyUseSamplesAlone(int major, int waitEvents, bool fallsBack)
    {
        var fallback = BlockingDiagnoser.FallbackOf(new Version(major, 0, 1), waitEvents);

        Assert.Equal(fallsBack, fallback?.Contains("sample-profiler stacks alone", StringComparison.Ordinal) ?? false);
    }

    [Theory]
    [InlineData("en-US")]
    [InlineData("de-DE")]
    [InlineData("fr-FR")]
    public void Writers_AnyCulture_WriteInvariantNumbers(string culture)
    {
        var grouper = new BlockedStackGrouper(new StackClassifier(), 14);
        grouper.Add(new ThreadObservation(1, 0, 1500, SleepInAction, ObservationSource.Sample));
        var (groups, _) = grouper.Complete(TimeSpan.FromSeconds(1), 0.2);
        var diagnosis = new Diagnosis(42, "shop", new Version(10, 0, 1), DiagnosisVerdict.Blocked, groups,
            TimeSpan.FromSeconds(2.5), TimeSpan.FromSeconds(2.75), new StackEvidence(1000, 3, 1.25, 4, 1.5, null));
        var previous = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = new CultureInfo(culture);
        try
        {
            var text = new StringWriter();
            new DiagnosisTextWriter().Write(diagnosis, text);
            var json = new StringWriter();
            new DiagnosisJsonWriter().Write(diagnosis, json);

            Assert.Contains("Api.Slow holds 1.5 pool threads", text.ToString(), StringComparison.Ordinal);
            Assert.Contains("answered in 2.8 s", text.ToString(), StringComparison.Ordinal);
            using var doc = System.Text.Json.JsonDocument.Parse(json.ToString());
            var culprit = doc.RootElement.GetProperty("culprits")[0];
            Assert.Equal("blocked", doc.RootElement.GetProperty("verdict").GetString());
            Assert.Equal("Thread.Sleep", culprit.GetProperty("blockingCall").GetString());
            Assert.Equal("Shop.Api.Slow", culprit.GetProperty("userFrame").GetString());
            Assert.Equal(1.5, culprit.GetProperty("threads").GetDouble());
            Assert.Equal(1, culprit.GetProperty("share").GetDouble());
            Assert.Equal("System.Threading.Thread.Sleep", culprit.GetProperty("stack")[0].GetString());
            Assert.Contains("Task.Delay", culprit.GetProperty("advice").GetString(), StringComparison.Ordinal);
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }
    }
}
