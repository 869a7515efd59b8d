using System.Globalization;
using Spectre.Console;
using Tplab.Common;
using Tplab.Processes;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Running;

/// <summary>The terminal of a watch run: the live view draws on <see cref="Console"/>, records go to <see cref="Out"/>, notices to <see cref="Error"/>.</summary>
public sealed record WatchTerminal(IAnsiConsole Console, TextWriter Out, TextWriter Error);

/// <summary>
/// One <c>tplab watch</c>, as the CLI runs it: picks the sink for the format, watches until the duration, Ctrl+C,
/// the process exiting or (with <c>--fail-on starving</c>) a starving sample, starts diagnoses on starvation when
/// asked, and maps the way it ended to the documented exit code. The data so far is always written.
/// </summary>
public static class WatchRun
{
    /// <summary>Runs the watch; returns the exit code (docs/watch.md), or throws a <see cref="TplabException"/> for a failure before it began.</summary>
    public static async Task<int> RunAsync(WatchRunOptions options, WatchTerminal terminal, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(terminal);
        options.Validated();
        if (options.From is { } from)
        {
            return Rewrite(options, from, terminal);
        }
        var pid = options.ProcessId ?? (options.Name is { } name ? ProcessFinder.ByName(name).ProcessId : (int?)null);
        var format = options.EffectiveFormat;
        // jsonl and csv stream a line per record; the HTML page is one document, written whole when the watch ends.
        using var page = format.WrittenWhole && options.Output is { } pagePath ? OpenPage(pagePath) : null;
        using var file = page is null ? OpenOutput(options.Output) : null;
        var title = pid is { } p ? $"tplab watch: pid {p.ToString(CultureInfo.InvariantCulture)}" : $"tplab watch: {string.Join(' ', options.Command)}";
        var records = format.Open(new WatchOutputTarget(page?.Writer ?? file ?? terminal.Out, terminal.Console, title, options.Interval));
        var starving = new StarvingSignal();
        var sinks = new WatchSinks(records, starving);
        // The records are what the user asked for: once they cannot be written (a closed pipe, a full disk) the
        // watch ends at once, rather than watching on for no one.
        var recordsFailed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        sinks.SinkFailed += s =>
        {
            if (s == records)
            {
                recordsFailed.TrySetResult();
            }
        };
        var watchOptions = new WatchOptions { Interval = options.Interval, Thresholds = options.Thresholds, Sink = sinks }.Validated();
        await using var watch = pid is { } id
            ? await ThreadPoolWatch.StartAsync(id, watchOptions, ct).ConfigureAwait(false)
            : await ThreadPoolWatch.LaunchAsync(options.Command, watchOptions, ct).ConfigureAwait(false);
        IStarvingAction? trigger = null;
        if (options.OnStarving is { } onStarving)
        {
            trigger = onStarving.Create(watch.ProcessId, options.Interval, terminal.Error, TimeProvider.System);
            sinks.Add(trigger);
        }
        if (!format.Terminal)
        {
            await terminal.Error.WriteLineAsync($"tplab watch: watching pid {watch.ProcessId.ToString(CultureInfo.InvariantCulture)} every {options.Interval.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s").ConfigureAwait(false);
        }
        var ended = await WaitAsync(watch, options.Duration, options.FailOnStarving ? starving.Seen : null, recordsFailed.Task, ct).ConfigureAwait(false);
        var timeline = await watch.StopAsync().ConfigureAwait(false);
        if (trigger is not null)
        {
            // A diagnosis under way is finished (its capture is seconds long), so its file is not lost with the watch.
            if (await Task.WhenAny(trigger.Idle, Task.Delay(TimeSpan.FromSeconds(60), CancellationToken.None)).ConfigureAwait(false) != trigger.Idle)
            {
                await terminal.Error.WriteLineAsync("tplab watch: a diagnosis was still running 60 s after the watch ended; its file was not written").ConfigureAwait(false);
            }
        }
        if ((watch.SinkError ?? sinks.ErrorOf(records)) is { } e)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {options.Output ?? "the output"}: {e.Message}", e);
        }
        // The last records are flushed here, where a full disk is still one line and exit 8.
        Commit(page, file, options.Output);
        var kept = $"the data so far was kept ({timeline.Samples.Count.ToString(CultureInfo.InvariantCulture)} samples, {timeline.Injections.Count.ToString(CultureInfo.InvariantCulture)} injections)";
        switch (ended)
        {
            case End.Starving:
                await terminal.Error.WriteLineAsync($"tplab: the pool of process {watch.ProcessId.ToString(CultureInfo.InvariantCulture)} is starving ({starving.Evidence}); {kept}").ConfigureAwait(false);
                return ExitCodes.Starving;
            case End.Interrupted:
                await terminal.Error.WriteLineAsync($"tplab: interrupted; {kept}").ConfigureAwait(false);
                return ExitCodes.Interrupted;
            case End.ProcessExited when watch.Child is { } child && options.Duration is null:
                // A started command ending is the natural end of `watch -- COMMAND` without --duration.
                await terminal.Error.WriteLineAsync($"tplab watch: the command exited ({child.LastLines(1)}); {kept}").ConfigureAwait(false);
                return ExitCodes.Ok;
            case End.ProcessExited:
                await terminal.Error.WriteLineAsync($"tplab: process {watch.ProcessId.ToString(CultureInfo.InvariantCulture)} exited during the watch; {kept}").ConfigureAwait(false);
                return ExitCodes.ProcessExited;
            case End.SessionLost:
                // Without the runtime's events the watch would go on sampling /proc alone, with no verdict to give.
                await terminal.Error.WriteLineAsync($"tplab: process {watch.ProcessId.ToString(CultureInfo.InvariantCulture)} closed its diagnostic connection during the watch (it still runs); {kept}").ConfigureAwait(false);
                return ExitCodes.NoProcess;
            default:
                return ExitCodes.Ok;
        }
    }

    // A saved watch written again in another format: the records in time order, then the summary, as a live watch delivers them.
    private static int Rewrite(WatchRunOptions options, string from, WatchTerminal terminal)
    {
        PoolTimeline timeline;
        try
        {
            using var input = new StreamReader(from);
            timeline = JsonlWatchReader.Read(input);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"cannot read --from {from}: {e.Message}");
        }
        // The file's own interval, not the --interval default: the header describes the watch that was saved.
        var format = options.EffectiveFormat;
        using var page = format.WrittenWhole && options.Output is { } pagePath ? OpenPage(pagePath) : null;
        using var file = page is null ? OpenOutput(options.Output) : null;
        var sink = format.Open(new WatchOutputTarget(page?.Writer ?? file ?? terminal.Out, terminal.Console, $"tplab watch: {from}", timeline.Interval));
        sink.Replay(timeline);
        Commit(page, file, options.Output);
        return ExitCodes.Ok;
    }

    private enum End
    {
        Duration,
        Interrupted,
        ProcessExited,
        Starving,
        SessionLost,
    }

    private static async Task<End> WaitAsync(ThreadPoolWatch watch, TimeSpan? duration, Task? starving, Task outputFailed, CancellationToken ct)
    {
        var timer = Task.Delay(duration ?? Timeout.InfiniteTimeSpan, ct);
        var finished = await Task.WhenAny(new[] { timer, watch.ProcessGone, starving, outputFailed, watch.EventsEnded }.OfType<Task>()).ConfigureAwait(false);
        if (finished == watch.EventsEnded && !ct.IsCancellationRequested)
        {
            // The stream ends a moment before /proc shows an exiting process gone: give it that moment.
            await Task.WhenAny(watch.ProcessGone, Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None)).ConfigureAwait(false);
            return ProcessFiles.IsAlive(watch.ProcessId) ? End.SessionLost : End.ProcessExited;
        }
        return finished == starving ? End.Starving
            : finished == watch.ProcessGone ? End.ProcessExited
            : ct.IsCancellationRequested ? End.Interrupted
            : End.Duration;
    }

    private static void Commit(AtomicFile? page, TextWriter? file, string? path)
    {
        try
        {
            file?.Flush();
            page?.Commit();
        }
        catch (Exception x) when (x is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {path}: {x.Message}", x);
        }
    }

    private static AtomicFile OpenPage(string path)
    {
        try
        {
            return AtomicFile.Create(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not open --output {path}: {e.Message}", e);
        }
    }

    private static StreamWriter? OpenOutput(string? path)
    {
        if (path is null)
        {
            return null;
        }
        try
        {
            // Each record is flushed after its line; a buffer far larger than a line means a reader tailing the
            // file only ever sees whole lines (the OS receives each line in one write).
            return new OutputWriter(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not open --output {path}: {e.Message}", e);
        }
    }

    /// <summary>Completes at the first starving sample.</summary>
    private sealed class StarvingSignal : IWatchSink
    {
        private readonly TaskCompletionSource _seen = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Seen => _seen.Task;

        public string Evidence { get; private set; } = "";

        public void OnInjection(ThreadPoolInjection injection)
        {
        }

        public void OnSample(ThreadPoolSample sample)
        {
            if (sample.Verdict.ThreadsHeld() && !_seen.Task.IsCompleted)
            {
                Evidence = $"at {sample.Offset.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s: {sample.Evidence}";
                _seen.TrySetResult();
            }
        }

        public void OnCompleted(PoolTimeline timeline)
        {
        }
    }

    /// <summary>
    /// The --output file. Disposing it after a failure (a full disk) must not replace the one-line error with the
    /// failed flush's exception: the error was already reported; a flush that matters is made before, explicitly.
    /// </summary>
    private sealed class OutputWriter(string path)
        : StreamWriter(path, append: false, new System.Text.UTF8Encoding(encoderShouldEmitUTF8Identifier: false), bufferSize: 1 << 16)
    {
        protected override void Dispose(bool disposing)
        {
            try
            {
                base.Dispose(disposing);
            }
            catch (IOException)
            {
                // Reported already, or about to be: see the class summary.
            }
        }
    }
}
