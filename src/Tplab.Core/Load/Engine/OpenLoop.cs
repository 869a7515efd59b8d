using Tplab.Load.Pacing;

namespace Tplab.Load.Engine;

/// <summary>
/// Open loop (vegeta; timed like wrk2): requests leave on the pacer's schedule whatever the server does.
/// Each record keeps its scheduled time, so latency counts from when the request should have left:
/// a stall of the server, of this process, or a full <c>--max-in-flight</c> shows in the latency instead
/// of silently thinning the samples (coordinated omission).
/// </summary>
internal sealed class OpenLoop(LoadOptions options, ISender sender, LoadClock clock, LoadCounters counters)
{
    private int _pending = 1;
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public IPacer Pacer { get; } = options.CreatePacer();

    public Task RunAsync(RecordCollector results, CancellationToken stopSending, CancellationToken abort)
    {
        // The schedule runs on its own thread: a thread-pool timer wakes 1-2 ms late and later still when the
        // pool is busy completing responses, which would show up as send lag that is ours, not the server's.
        var pacing = new Thread(() => Pace(results, stopSending, abort)) { IsBackground = true, Name = "tplab pacer", Priority = ThreadPriority.AboveNormal };
        pacing.Start();
        return _drained.Task;
    }

    private void Pace(RecordCollector results, CancellationToken stopSending, CancellationToken abort)
    {
        using var slots = options.MaxInFlight is { } max ? new SemaphoreSlim(max, max) : null;
        try
        {
            // With a sender that holds early requests, hits due within its lead are handed over together and the
            // pacer sleeps until the next hit is half a lead away: about one wake-up per half lead at any rate.
            var lead = sender.Lead;
            for (long hit = 0; ; hit++)
            {
                var decision = Pacer.Pace(clock.Now + lead, hit);
                if (decision.Stop)
                {
                    break;
                }
                if (stopSending.IsCancellationRequested
                    || (decision.Wait > TimeSpan.Zero && !clock.WaitUntil(Pacer.ScheduledAt(hit) - (lead / 2), stopSending))
                    || (slots is not null && !WaitForSlot(slots, stopSending)))
                {
                    // This hit never left: Ctrl+C or a threshold stopped sending (a pacer catching up checks too), and
                    // the hits due by then are unsent; or every slot was still taken when the window ended, and every
                    // hit left was due in it.
                    counters.Unsent = CountDue(hit, stopSending.IsCancellationRequested ? clock.Now : TimeSpan.MaxValue);
                    break;
                }
                Interlocked.Increment(ref _pending);
                counters.OnSent();
                _ = SendOneAsync(Pacer.ScheduledAt(hit), results, slots, abort);
            }
        }
        finally
        {
            Finish();
            // The slots must outlive the last release: wait for the drain before the using disposes them.
            _drained.Task.Wait(CancellationToken.None);
        }
    }

    // Hits of the schedule from `first` on that were due by `by` and never left: no latency of theirs is recorded, so
    // the summary counts them (k6 counts the like as "dropped iterations") rather than let the run look complete.
    private long CountDue(long first, TimeSpan by)
    {
        var due = 0L;
        for (var hit = first; !Pacer.Pace(Pacer.ScheduledAt(hit), hit).Stop && Pacer.ScheduledAt(hit) <= by; hit++)
        {
            due++;
        }
        return due;
    }

    // Waits for a free --max-in-flight slot until the schedule's window ends (no longer: the hits behind this one
    // would otherwise leave after it) or sending stops. A slot free now is taken whatever the clock reads: a pacer that
    // woke late, past the window's end (descheduled on a busy machine), must still send the hits due in the window,
    // not count them unsent while every slot stood free (it dropped 3 of 100 so on a loaded CI machine).
    private bool WaitForSlot(SemaphoreSlim slots, CancellationToken stopSending)
    {
        if (slots.Wait(0))
        {
            return true;
        }
        try
        {
            if (options.SendingLength is not { } window)
            {
                slots.Wait(stopSending);
                return true;
            }
            var left = window - clock.Now;
            if (left <= TimeSpan.Zero)
            {
                return false;
            }
            if (clock.Time == TimeProvider.System)
            {
                return slots.Wait(left, stopSending);
            }
            // Another provider (a test's fake clock): the window ends on its timer, as every other wait of the run does.
            using var windowEnd = new CancellationTokenSource(left, clock.Time);
            using var either = CancellationTokenSource.CreateLinkedTokenSource(stopSending, windowEnd.Token);
            slots.Wait(either.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    // Pooled builder: at tens of thousands of sends a second, a state machine allocated per send is what the GC would see.
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendOneAsync(TimeSpan scheduled, RecordCollector results, SemaphoreSlim? slots, CancellationToken abort)
    {
        try
        {
            var before = clock.Now;
            RequestRecord record;
            try
            {
                record = await sender.SendAsync(scheduled, -1, abort).ConfigureAwait(false);
            }
            catch (Exception e) when (SafeSend.Catches(e))
            {
                record = SafeSend.Record(e, clock, scheduled, before, -1);
            }
            counters.OnDone(record);
            results.Add(record);
        }
        finally
        {
            slots?.Release();
            Finish();
        }
    }

    // _pending starts at 1 for the pacer itself, so "drained" fires only after sending stopped and the last request ended.
    private void Finish()
    {
        if (Interlocked.Decrement(ref _pending) == 0)
        {
            _drained.TrySetResult();
        }
    }
}
