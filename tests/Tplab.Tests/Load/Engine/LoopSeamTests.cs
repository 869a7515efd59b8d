using Tplab.Load;
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
        // 1,000/s for 0.2 s with two slots and answers that take 3 s: two hits leave, the other 198 come due while
        // both slots are taken and are never sent. The summary must say so, not look like a complete run of two.
        // (Answers of 0.5 s let a third hit leave when the loop stalled half a second on a machine at load 55.)
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Rate = 1000, Duration = TimeSpan.FromSeconds(0.2), MaxInFlight = 2 };
        var result = await LoadRunner.RunAsync(options, null, null, TimeProvider.System,
            (_, clock) => new FakeSender(clock, failEvery: int.MaxValue) { Delay = TimeSpan.FromSeconds(3) }, CancellationToken.None);
        Assert.Equal(2, result.Summary.Requests);
        Assert.Equal(198, result.Summary.Unsent);
    }

    [Fact]
    public async Task OpenLoop_SlotsFreeAtOnce_EveryHitOfTheScheduleIsSent()
    {
        // The schedule's end, not a timer, stops sending: a timer fires on a coarse tick, a few ms early, and dropped
        // the last hits (98 of 100 on a busy machine, and 199,990 of 200,000 in a benchmark row).
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:1/"), Rate = 1000, Duration = TimeSpan.FromSeconds(0.1), MaxInFlight = 4 };
        var result = await LoadRunner.RunAsync(options, null, null, TimeProvider.System, (_, clock) => new FakeSender(clock, failEvery: int.MaxValue), CancellationToken.None);
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

        public TimeSpan Delay { get; init; }

        public System.Collections.Concurrent.ConcurrentQueue<(TimeSpan Scheduled, TimeSpan At)> HandedOver { get; } = new();

        public ValueTask<RequestRecord> SendAsync(TimeSpan scheduled, int user, CancellationToken abort)
        {
            HandedOver.Enqueue((scheduled, clock.Now));
            if (Interlocked.Increment(ref _calls) % failEvery == 0)
            {
                throw new InvalidOperationException("surprise");
            }
            var now = clock.Now;
            return Delay > TimeSpan.Zero
                ? new ValueTask<RequestRecord>(AnswerLaterAsync(scheduled, now, user))
                : ValueTask.FromResult(new RequestRecord(scheduled, now, now, now, 200, 10, 2, 20, null, user));
        }

        private async Task<RequestRecord> AnswerLaterAsync(TimeSpan scheduled, TimeSpan start, int user)
        {
            await Task.Delay(Delay).ConfigureAwait(false);
            var end = clock.Now;
            return new RequestRecord(scheduled, start, end, end, 200, 10, 2, 20, null, user);
        }

        public void Dispose()
        {
        }
    }
}
