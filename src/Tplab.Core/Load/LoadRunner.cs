using Tplab.Load.Engine;
using Tplab.Load.Summary;
using Tplab.Load.Thresholds;

namespace Tplab.Load;

/// <summary>
/// The entry point of load generation: runs the closed or open loop, folds every request record into one aggregator
/// as it ends (and streams it to the caller's <see cref="IRecordSink"/>), reports progress about once a second, and returns
/// the summary. Records are kept in the result only when <see cref="LoadOptions.KeepRecords"/> asks for them, so a
/// long run's memory stays flat. Cancellation is not an error: sending stops, in-flight requests get
/// <see cref="LoadOptions.InterruptGrace"/> to end, and the partial result comes back marked interrupted.
/// </summary>
public static class LoadRunner
{
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(1);

    // Records for a sink or the result are picked up on a beat rather than one wake-up per record: at 100,000
    // requests a second a wake-up each would cost the generator more CPU than sending them.
    private static readonly TimeSpan DrainEvery = TimeSpan.FromMilliseconds(10);

    // Thresholds are not judged on the first seconds' handful of requests.
    private static readonly TimeSpan ThresholdsFrom = TimeSpan.FromSeconds(2);

    /// <summary>Runs a load on the system clock.</summary>
    public static Task<LoadResult> RunAsync(LoadOptions options, IProgress<LoadProgress>? progress, CancellationToken ct) =>
        RunAsync(options, progress, null, TimeProvider.System, ct);

    /// <summary>Runs a load on the system clock, streaming each record to <paramref name="sink"/>.</summary>
    public static Task<LoadResult> RunAsync(LoadOptions options, IProgress<LoadProgress>? progress, IRecordSink? sink, CancellationToken ct) =>
        RunAsync(options, progress, sink, TimeProvider.System, ct);

    /// <summary>Runs a load, timing everything on <paramref name="time"/>.</summary>
    public static Task<LoadResult> RunAsync(LoadOptions options, IProgress<LoadProgress>? progress, TimeProvider time, CancellationToken ct) =>
        RunAsync(options, progress, null, time, ct);

    /// <summary>Runs a load, timing everything on <paramref name="time"/> and streaming each record to <paramref name="sink"/>.</summary>
    public static Task<LoadResult> RunAsync(LoadOptions options, IProgress<LoadProgress>? progress, IRecordSink? sink, TimeProvider time, CancellationToken ct) =>
        RunAsync(options, progress, sink, time, SenderFactory.Create, ct);

    /// <summary>The same with the sender made by <paramref name="newSender"/> (tests drive the loops without a network).</summary>
    internal static async Task<LoadResult> RunAsync(
        LoadOptions options, IProgress<LoadProgress>? progress, IRecordSink? sink, TimeProvider time, Func<LoadOptions, LoadClock, ISender> newSender, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        if (options.Warmup > TimeSpan.Zero)
        {
            // Sent and thrown away: the measured run starts on a warm target and a warm generator.
            var warm = options with
            {
                Warmup = TimeSpan.Zero, Duration = options.Warmup, Requests = null, Loops = null, Stages = [],
                Rate = options.Stages.Count > 0 ? (options.Rate > 0 ? options.Rate : null) : options.Rate,
                Thresholds = [], AbortOnThreshold = false, KeepRecords = false,
            };
            await RunAsync(warm, null, null, time, newSender, ct).ConfigureAwait(false);
            ct.ThrowIfCancellationRequested();
        }
        var clock = new LoadClock(time);
        var counters = new LoadCounters();
        using var sender = newSender(options, clock);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        // Closed loop stops sending at the duration. Open loop stops at the end of its own schedule, on the run's clock:
        // a timer here fires on a coarse tick, up to a few milliseconds early, and would drop the schedule's last hits.
        using var deadline = options.SendingLength is { } d && !options.IsOpenLoop ? new CancellationTokenSource(d, time) : new CancellationTokenSource();
        using var stopSending = CancellationTokenSource.CreateLinkedTokenSource(stop.Token, deadline.Token);
        using var abort = new CancellationTokenSource();
        // After Ctrl+C, in-flight requests may still end for a short grace; then they are cut as "interrupted".
        await using var onCancel = ct.Register(() => abort.CancelAfter(options.InterruptGrace)).ConfigureAwait(false);

        var aggregator = new SummaryAggregator(options);
        var collector = new RecordCollector(aggregator, keepRecords: sink is { WantsRecords: true } || options.KeepRecords);
        sink?.Begin(clock.StartedAt);
        var attack = AttackAsync(options, sender, clock, counters, collector, stopSending.Token, abort.Token);

        var records = new List<RequestRecord>();
        // On a thread of its own that sleeps between beats: a timer and a pool thread woken 100 times a second cost
        // the generator measurable CPU (the pool's idle spin yields to the event loops on every wake-up).
        var abortedBy = await Task.Factory.StartNew(
            () => Beat(options, attack, collector, records, sink, progress, clock, counters, stop),
            CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default).ConfigureAwait(false);
        // The attack ends on an event loop when the last response completes a user inline: continue on the pool, so
        // the sender is never disposed (and the caller never resumed) on the loop that must stop.
        await attack.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        var summary = aggregator.Complete(ct.IsCancellationRequested, sender.ServerSoftware, sender.Engine);
        summary = summary with
        {
            AbortedBy = abortedBy,
            Unsent = options.IsOpenLoop ? counters.Unsent : null,
            FinishedAt = clock.StartedAt + clock.Now,
            Thresholds = [.. options.Thresholds.Select(t => Evaluate(t, summary))],
        };
        return new LoadResult(summary, records, clock.StartedAt);
    }

    // Until the attack ends: hands the kept records to the sink (and the result) in completion order, reports
    // progress, and checks the thresholds that may abort the run; returns the threshold that aborted it, if one did.
    // With no records to hand over it wakes only for progress and thresholds, about once a second.
    private static string? Beat(
        LoadOptions options, Task attack, RecordCollector collector, List<RequestRecord> records,
        IRecordSink? sink, IProgress<LoadProgress>? progress, LoadClock clock, LoadCounters counters, CancellationTokenSource stop)
    {
        var nextThresholdCheck = options.AbortOnThreshold ? ThresholdsFrom : TimeSpan.MaxValue;
        var nextProgress = progress is null ? TimeSpan.MaxValue : ProgressEvery;
        string? abortedBy = null;
        var spare = new List<RequestRecord>();
        var writeTo = sink is { WantsRecords: true } ? sink : null;
        // The handle, not Task.Wait: a faulted attack must end the wait, not throw here (the caller rethrows).
        var ended = ((IAsyncResult)attack).AsyncWaitHandle;
        while (true)
        {
            // Read before the hand-over: once the attack has ended, this hand-over is the last.
            var done = attack.IsCompleted;
            if (collector.KeepsRecords)
            {
                var taken = collector.TakePending(spare);
                foreach (var record in taken)
                {
                    writeTo?.Write(record);
                }
                if (options.KeepRecords)
                {
                    records.AddRange(taken);
                }
                taken.Clear();
                spare = taken;
            }
            if (done)
            {
                return abortedBy;
            }
            if (clock.Now >= nextProgress)
            {
                var p99 = collector.Read(a => a.CurrentP99Ms);
                progress!.Report(new LoadProgress(clock.Now, counters.Sent, counters.Done, counters.InFlight, counters.Errors, p99));
                nextProgress = clock.Now + ProgressEvery;
            }
            if (abortedBy is null && clock.Now >= nextThresholdCheck)
            {
                nextThresholdCheck = clock.Now + ProgressEvery;
                abortedBy = collector.Read(a => FirstFailing(options, a));
                if (abortedBy is not null)
                {
                    stop.Cancel();
                    nextThresholdCheck = TimeSpan.MaxValue;
                }
            }
            var untilNext = Min(nextProgress, nextThresholdCheck) - clock.Now;
            var wait = collector.KeepsRecords ? DrainEvery : Clamp(untilNext, TimeSpan.FromMilliseconds(1), ProgressEvery);
            ended.WaitOne(wait);
        }
    }

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;

    private static TimeSpan Clamp(TimeSpan value, TimeSpan min, TimeSpan max) => value < min ? min : value > max ? max : value;

    private static ThresholdResult Evaluate(Threshold threshold, LoadSummary summary)
    {
        var actual = threshold.Read(summary);
        return new ThresholdResult(threshold.Text, threshold.Metric, actual, threshold.Passes(actual));
    }

    private static string? FirstFailing(LoadOptions options, SummaryAggregator aggregator)
    {
        var latency = aggregator.CurrentLatency;
        return options.Thresholds.FirstOrDefault(t => !t.Passes(t.Read(latency, aggregator.CurrentRequests, aggregator.CurrentFailed)))?.Text;
    }

    private static async Task AttackAsync(
        LoadOptions options, ISender sender, LoadClock clock, LoadCounters counters,
        RecordCollector collector, CancellationToken stopSending, CancellationToken abort)
    {
        // Off the caller's context, so a caller that blocks never stalls the senders; and without the caller's
        // execution context, which nothing in a load reads: a user's await then resumes with no context to restore.
        Task run;
        using (ExecutionContext.SuppressFlow())
        {
            run = Task.Run(() => options.IsOpenLoop
                ? new OpenLoop(options, sender, clock, counters).RunAsync(collector, stopSending, abort)
                : new ClosedLoop(options, sender, clock, counters).RunAsync(collector, stopSending, abort), CancellationToken.None);
        }
        await run.ConfigureAwait(false);
    }
}
