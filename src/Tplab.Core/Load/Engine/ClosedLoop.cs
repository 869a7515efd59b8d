namespace Tplab.Load.Engine;

/// <summary>
/// Closed loop (ab, JMeter, siege): N users, each sending its next request when its previous one ended.
/// Users start evenly over the ramp-up, the first at once (JMeter); each stops at its loop count, when the
/// shared request budget is spent, or when sending stops (duration or Ctrl+C). Think time sits between a
/// user's requests and is never inside a latency.
/// </summary>
internal sealed class ClosedLoop(LoadOptions options, ISender sender, LoadClock clock, LoadCounters counters)
{
    private long _claimed;

    public async Task RunAsync(RecordCollector results, CancellationToken stopSending, CancellationToken abort)
    {
        var users = new Task[options.Concurrency];
        for (var i = 0; i < users.Length; i++)
        {
            var startAt = TimeSpan.FromTicks(options.RampUp.Ticks * i / options.Concurrency);
            users[i] = UserAsync(i, startAt, results, stopSending, abort);
        }
        await Task.WhenAll(users).ConfigureAwait(false);
    }

    private async Task UserAsync(int user, TimeSpan startAt, RecordCollector results, CancellationToken stopSending, CancellationToken abort)
    {
        // Yield first so that starting 10,000 users never runs one user's first request inline here.
        await Task.Yield();
        if (!await clock.WaitUntilAsync(startAt, stopSending).ConfigureAwait(false))
        {
            return;
        }
        var random = options.Think is null ? null : new Random(user);
        for (var loop = 0; options.Loops is not { } loops || loop < loops; loop++)
        {
            if (stopSending.IsCancellationRequested || !ClaimOne())
            {
                return;
            }
            counters.OnSent();
            var now = clock.Now;
            RequestRecord record;
            try
            {
                record = await sender.SendAsync(now, user, abort).ConfigureAwait(false);
            }
            catch (Exception e) when (SafeSend.Catches(e))
            {
                record = SafeSend.Record(e, clock, now, now, user);
            }
            counters.OnDone(record);
            results.Add(record);
            if (options.Think is { } think && !await clock.WaitUntilAsync(clock.Now + Between(random!, think.Min, think.Max), stopSending).ConfigureAwait(false))
            {
                return;
            }
        }
    }

    // The -n budget is shared by every user, as in ab: whoever is free takes the next request.
    private bool ClaimOne() => options.Requests is not { } limit || Interlocked.Increment(ref _claimed) <= limit;

    private static TimeSpan Between(Random random, TimeSpan min, TimeSpan max) =>
        min + TimeSpan.FromTicks((long)(random.NextDouble() * (max - min).Ticks));
}
