using System.Threading.Channels;
using Tplab.Load.Engine;
using Tplab.Load.Reports;

namespace Tplab.Load;

/// <summary>
/// The entry point of load generation: runs the closed or open loop, streams every request record through
/// one aggregator, reports progress about once a second, and returns the summary. Cancellation is not an
/// error: sending stops, in-flight requests get <see cref="LoadOptions.InterruptGrace"/> to end, and the
/// partial result comes back marked interrupted.
/// </summary>
public static class LoadRunner
{
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(1);

    /// <summary>Runs a load on the system clock.</summary>
    public static Task<LoadResult> RunAsync(LoadOptions options, IProgress<LoadProgress>? progress, CancellationToken ct) =>
        RunAsync(options, progress, TimeProvider.System, ct);

    /// <summary>Runs a load, timing everything on <paramref name="time"/>.</summary>
    public static async Task<LoadResult> RunAsync(LoadOptions options, IProgress<LoadProgress>? progress, TimeProvider time, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var clock = new LoadClock(time);
        var counters = new LoadCounters();
        using var sender = new HttpSender(options, clock);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        using var deadline = options.Duration is { } d ? new CancellationTokenSource(d, time) : new CancellationTokenSource();
        using var stopSending = CancellationTokenSource.CreateLinkedTokenSource(stop.Token, deadline.Token);
        using var abort = new CancellationTokenSource();
        // After Ctrl+C, in-flight requests may still end for a short grace; then they are cut as "interrupted".
        await using var onCancel = ct.Register(() => abort.CancelAfter(options.InterruptGrace)).ConfigureAwait(false);

        var channel = Channel.CreateUnbounded<RequestRecord>(new UnboundedChannelOptions { SingleReader = true, AllowSynchronousContinuations = false });
        var attack = AttackAsync(options, sender, clock, counters, channel.Writer, stopSending.Token, abort.Token);

        var aggregator = new SummaryAggregator(options);
        var records = new List<RequestRecord>();
        var nextProgress = ProgressEvery;
        var reader = channel.Reader;
        while (true)
        {
            while (reader.TryRead(out var record))
            {
                aggregator.Add(record);
                if (options.KeepRecords)
                {
                    records.Add(record);
                }
            }
            if (progress is not null && clock.Now >= nextProgress)
            {
                progress.Report(new LoadProgress(clock.Now, counters.Sent, counters.Done, counters.InFlight, counters.Errors, aggregator.CurrentP99Ms));
                nextProgress = clock.Now + ProgressEvery;
            }
            var more = reader.WaitToReadAsync(CancellationToken.None);
            if (!more.IsCompleted && progress is not null)
            {
                // A stalled server sends nothing back: wake up anyway to keep the progress line alive.
                var moreTask = more.AsTask();
                await Task.WhenAny(moreTask, Task.Delay(ProgressEvery, time)).ConfigureAwait(false);
                if (!moreTask.IsCompleted)
                {
                    continue;
                }
                more = new ValueTask<bool>(moreTask);
            }
            if (!await more.ConfigureAwait(false))
            {
                break;
            }
        }
        await attack.ConfigureAwait(false);
        var summary = aggregator.Complete(ct.IsCancellationRequested, sender.ServerSoftware);
        return new LoadResult(summary, records, clock.StartedAt);
    }

    private static async Task AttackAsync(
        LoadOptions options, HttpSender sender, LoadClock clock, LoadCounters counters,
        ChannelWriter<RequestRecord> writer, CancellationToken stopSending, CancellationToken abort)
    {
        try
        {
            // Off the caller's context, so a caller that blocks never stalls the senders.
            await Task.Run(() => options.IsOpenLoop
                ? new OpenLoop(options, sender, clock, counters).RunAsync(writer, stopSending, abort)
                : new ClosedLoop(options, sender, clock, counters).RunAsync(writer, stopSending, abort), CancellationToken.None).ConfigureAwait(false);
            writer.TryComplete();
        }
        catch (Exception e)
        {
            writer.TryComplete(e);
            throw;
        }
    }
}
