using Microsoft.Extensions.Time.Testing;
using Tplab.Load;
using Tplab.Load.Summary;
using Tplab.Load.Engine;

namespace Tplab.Tests.Load.Engine;

/// <summary>The loops' timing logic through the sender seam, with no network: what they do with each send's outcome.</summary>
public sealed class LoopSeamTests
{
    [Fact]
    public async Task OpenLoop_SenderThrowsUnexpectedly_EveryScheduledRequestStillEndsAsANamedError()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Rate = 2000, Requests = 40, KeepRecords = true };
        var result = await LoadRunner.RunAsync(options, null, null, TimeProvider.System, (_, clock) => new FakeSender(clock, failEvery: 2), CancellationToken.None);
        Assert.Equal(40, result.Summary.Requests);
        Assert.Equal(40, result.Records.Count);
        var error = Assert.Single(result.Summary.Errors);
        Assert.Equal("internal: InvalidOperationException: surprise", error.Message);
        Assert.Equal(20, error.Count);
        // Each record keeps its own slot on the schedule: 40 distinct scheduled times 0.5 ms apart.
        Assert.Equal(40, result.Records.Select(r => r.Scheduled).Distinct().Count());
        Assert.Equal(TimeSpan.FromMilliseconds(19.5), result.Records.Max(r => r.Scheduled));
    }

    [Fact]
    public async Task OpenLoop_SenderWithALead_GetsEachRequestWithinTheLeadOfItsSlotAndNeverEarlier()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Rate = 1000, Requests = 30, KeepRecords = true };
        FakeSender? sender = null;
        var result = await LoadRunner.RunAsync(options, null, null, TimeProvider.System,
            (_, clock) => sender = new FakeSender(clock, failEvery: int.MaxValue) { Lead = TimeSpan.FromMilliseconds(5) }, CancellationToken.None);
        Assert.Equal(30, result.Summary.Requests);
        Assert.Equal(30, result.Records.Select(r => r.Scheduled).Distinct().Count());
        // Handed over at most the lead before the slot (the sender then holds it); the schedule itself is unchanged.
        Assert.All(sender!.HandedOver, h => Assert.True(h.At >= h.Scheduled - sender.Lead, $"handed at {h.At} for {h.Scheduled}"));
        Assert.Equal(TimeSpan.FromMilliseconds(29), result.Records.Max(r => r.Scheduled));
    }

    [Fact]
    public async Task ClosedLoop_SenderThrows_TheUserGoesOnAndTheBudgetIsExact()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Concurrency = 4, Requests = 30, KeepRecords = true };
        var result = await LoadRunner.RunAsync(options, null, null, TimeProvider.System, (_, clock) => new FakeSender(clock, failEvery: 3), CancellationToken.None);
        Assert.Equal(30, result.Summary.Requests);
        Assert.Equal(10, Assert.Single(result.Summary.Errors).Count);
        Assert.All(result.Records, r => Assert.InRange(r.User, 0, 3));
        // Closed loop: the schedule is the moment the user sends.
        Assert.All(result.Records, r => Assert.True(r.Start >= r.Scheduled));
        Assert.Equal("fake", result.Summary.Engine);
    }

    [Fact]
    public async Task NoRecordsKept_UnlessAsked_ButEveryRecordReachesTheSink()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Concurrency = 3, Requests = 500 };
        var sink = new CountingSink();
        var result = await LoadRunner.RunAsync(options, null, sink, TimeProvider.System, (_, clock) => new FakeSender(clock, failEvery: int.MaxValue), CancellationToken.None);
        Assert.Equal(500, result.Summary.Requests);
        Assert.Empty(result.Records);
        Assert.Equal(500, sink.Count);
        Assert.NotEqual(default, sink.StartedAt);
    }

    [Fact]
    public async Task OpenLoop_InFlightCapStillFullWhenSendingStops_CountsTheDueHitsAsUnsent()
    {
        // 1,000/s for 0.2 s with two slots whose answers are held until sending has ended: two hits leave, the other
        // 198 come due while both slots are taken and are never sent. The summary must say so, not look like a
        // complete run of two. On a fake clock the test moves time itself, so no stall of this machine changes it.
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Rate = 1000, Duration = TimeSpan.FromSeconds(0.2), MaxInFlight = 2 }.Validate();
        var time = new FakeTimeProvider();
        var clock = new LoadClock(time);
        var counters = new LoadCounters();
        using var sender = new FakeSender(clock, failEvery: int.MaxValue) { HoldAnswers = true };
        var drained = new OpenLoop(options, sender, clock, counters)
            .RunAsync(new RecordCollector(new SummaryAggregator(options), keepRecords: false), CancellationToken.None, CancellationToken.None);

        await AdvanceUntil(time, TimeSpan.FromMilliseconds(1), () => sender.HandedOver.Count >= 2);
        // Past the window's end with both slots still taken: hit 2's wait for a slot ends with the window.
        time.Advance(TimeSpan.FromSeconds(1));
        await AdvanceUntil(time, TimeSpan.FromMilliseconds(100), () => counters.Unsent != 0);
        Assert.Equal(2, sender.HandedOver.Count);
        sender.ReleaseAnswers();
        await drained.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(2, counters.Sent);
        Assert.Equal(2, counters.Done);
        Assert.Equal(198, counters.Unsent);
    }

    [Fact]
    public async Task OpenLoop_SlotsFreeAtOnce_EveryHitOfTheScheduleIsSent()
    {
        // The schedule's end, not a timer, stops sending: a timer fires on a coarse tick, a few ms early, and dropped
        // the last hits (98 of 100 on a busy machine, and 199,990 of 200,000 in a benchmark row).
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Rate = 1000, Duration = TimeSpan.FromSeconds(0.1), MaxInFlight = 4 };
        var time = new FakeTimeProvider();
        var run = LoadRunner.RunAsync(options, null, null, time, (_, clock) => new FakeSender(clock, failEvery: int.MaxValue), CancellationToken.None);
        // The pacer wakes a whole second late, long past the window's end, as a descheduled thread on a loaded machine
        // does (it sent 97 of 100 so): every slot stands free, so every hit still leaves, late, none counted unsent.
        time.Advance(TimeSpan.FromSeconds(1));
        await AdvanceUntil(time, TimeSpan.FromMilliseconds(1), () => run.IsCompleted);
        var result = await run;
        Assert.Equal(100, result.Summary.Requests);
        Assert.Equal(0, result.Summary.Unsent);
    }

    [Fact]
    public async Task ASinkThatWantsNoRecords_GetsBeginButNoRecord_AndTheSummaryStillCountsEvery()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Concurrency = 3, Requests = 500 };
        var sink = new CountingSink { WantsRecords = false };
        var result = await LoadRunner.RunAsync(options, null, sink, TimeProvider.System, (_, clock) => new FakeSender(clock, failEvery: int.MaxValue), CancellationToken.None);
        Assert.Equal(500, result.Summary.Requests);
        Assert.Equal(0, sink.Count);
        Assert.NotEqual(default, sink.StartedAt);
    }

    [Fact]
    public async Task KeptRecordsAndTheSink_SeeTheSameRecordsInTheSameOrder()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Concurrency = 4, Requests = 2000, KeepRecords = true };
        var sink = new CountingSink();
        var result = await LoadRunner.RunAsync(options, null, sink, TimeProvider.System, (_, clock) => new FakeSender(clock, failEvery: int.MaxValue), CancellationToken.None);
        Assert.Equal(2000, result.Records.Count);
        Assert.Equal(result.Records, sink.Records);
    }

    // Moves the fake clock on by `step` until the loop reaches a state. Steps, not one jump: a wait the pacer computed
    // just before an advance and registered just after is due relative to the new time (the provider's timers are
    // relative), so it needs one more step; no step can change the outcome asserted. The real-time bound only stops a
    // broken loop from hanging the suite.
    private static async Task AdvanceUntil(FakeTimeProvider time, TimeSpan step, Func<bool> reached)
    {
        var giveUp = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (!reached())
        {
            Assert.True(DateTime.UtcNow < giveUp, "the loop never reached the state waited for");
            await Task.Delay(1);
            if (!reached())
            {
                time.Advance(step);
            }
        }
    }

    private sealed class CountingSink : IRecordSink
    {
        public int Count => Records.Count;

        public List<RequestRecord> Records { get; } = [];

        public bool WantsRecords { get; init; } = true;

        public DateTimeOffset StartedAt { get; private set; }

        public void Begin(DateTimeOffset startedAt) => StartedAt = startedAt;

        public void Write(in RequestRecord record) => Records.Add(record);
    }

    /// <summary>Answers 200 at once, or throws on every n-th call: a sender breaking its own contract.</summary>
    private sealed class FakeSender(LoadClock clock, int failEvery) : ISender
    {
        private int _calls;

        public string Engine => "fake";

        public string? ServerSoftware => null;

        public TimeSpan Lead { get; init; }

        /// <summary>Answers wait for <see cref="ReleaseAnswers"/> (the test decides when a slot frees, not a clock).</summary>
        public bool HoldAnswers { get; init; }

        private readonly TaskCompletionSource _release = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public void ReleaseAnswers() => _release.TrySetResult();

        public System.Collections.Concurrent.ConcurrentQueue<(TimeSpan Scheduled, TimeSpan At)> HandedOver { get; } = new();

        public ValueTask<RequestRecord> SendAsync(TimeSpan scheduled, int user, CancellationToken abort)
        {
            HandedOver.Enqueue((scheduled, clock.Now));
            if (Interlocked.Increment(ref _calls) % failEvery == 0)
            {
                throw new InvalidOperationException("surprise");
            }
            var now = clock.Now;
            return HoldAnswers
                ? new ValueTask<RequestRecord>(AnswerLaterAsync(scheduled, now, user))
                : ValueTask.FromResult(new RequestRecord(scheduled, now, now, now, 200, 10, 2, 20, null, user));
        }

        private async Task<RequestRecord> AnswerLaterAsync(TimeSpan scheduled, TimeSpan start, int user)
        {
            await _release.Task.ConfigureAwait(false);
            var end = clock.Now;
            return new RequestRecord(scheduled, start, end, end, 200, 10, 2, 20, null, user);
        }

        public void Dispose()
        {
        }
    }
}
