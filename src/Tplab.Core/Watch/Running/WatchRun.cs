using System.Globalization;
using Spectre.Console;
using Tplab.Common;
using Tplab.Processes;
using Tplab.Watch.Export;
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
        var format = options.EffectiveFormat;
        // jsonl and csv stream a line per record; the HTML page is one document, written whole when the watch ends.
        using var page = format.WrittenWhole && options.Output is { } pagePath ? OpenPage(pagePath) : null;
        using var file = page is null ? OpenOutput(options.Output) : null;
        var several = options.All || options.ProcessIds.Count > 1;
        var title = options.Name is { } n ? $"tplab watch: {n}" : options.ProcessIds.Count > 0
            ? $"tplab watch: pid {string.Join(", ", options.ProcessIds.Select(p => p.ToString(CultureInfo.InvariantCulture)))}"
            : $"tplab watch: {string.Join(' ', options.Command)}";
        var records = several && format.Terminal
            ? new FleetLiveView(terminal.Console, $"{title}, every {options.Interval.TotalSeconds.ToString("0.00", CultureInfo.InvariantCulture)} s")
            : format.Open(new WatchOutputTarget(page?.Writer ?? file ?? terminal.Out, terminal.Console, title, options.Interval));
        var starving = new StarvingSignal();
        using var export = WatchExports.Open(options, terminal.Error);
        await using var fleet = new WatchFleet(options, records, export, starving, terminal.Error);
        using var discovery = CancellationTokenSource.CreateLinkedTokenSource(ct);
        Task? discovering = null;
        if (options.Command.Count > 0)
        {
            await fleet.LaunchAsync(options.Command, ct).ConfigureAwait(false);
        }
        else if (options.Name is { } name && options.All)
        {
            discovering = FleetDiscovery.RunAsync(fleet, name, discovery.Token);
        }
        else
        {
            await fleet.AddAllAsync(options.ProcessIds.Count > 0 ? options.ProcessIds : [ProcessFinder.ByName(options.Name!).ProcessId], ct).ConfigureAwait(false);
        }
        if (!format.Terminal)
        {
            var what = fleet.First is { } first && !several ? $"pid {first.ProcessId.ToString(CultureInfo.InvariantCulture)}" : "every process named " + options.Name;
            // The pids actually watched: one that was refused (not a process, not .NET) was said above and is not named here.
            var watching = several && options.Name is null ? "pid " + string.Join(", ", fleet.Watching.Select(p => p.ToString(CultureInfo.InvariantCulture))) : what;
            await terminal.Error.WriteLineAsync($"tplab watch: watching {watching} every {options.Interval.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s").ConfigureAwait(false);
        }
        var ended = await WaitAsync(fleet, options.Duration, options.FailOnStarving ? starving.Seen : null, ct).ConfigureAwait(false);
        if (ended == End.ProcessExited && fleet.Ended.Count == 1 && fleet.Ended[0].SessionLost)
        {
            ended = End.SessionLost;
        }
        await discovery.CancelAsync().ConfigureAwait(false);
        if (discovering is not null)
        {
            await discovering.ConfigureAwait(false);
        }
        var members = await fleet.StopAsync().ConfigureAwait(false);
        if (fleet.RecordsError is { } e)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {options.Output ?? "the output"}: {e.Message}", e);
        }
        // The last records are flushed here, where a full disk is still one line and exit 8.
        Commit(page, file, options.Output);
        var samples = members.Sum(m => m.Timeline?.Samples.Count ?? 0);
        var injections = members.Sum(m => m.Timeline?.Injections.Count ?? 0);
        var kept = $"the data so far was kept ({samples.ToString(CultureInfo.InvariantCulture)} samples, {injections.ToString(CultureInfo.InvariantCulture)} injections)";
        var only = members.Count == 1 ? members[0] : null;
        switch (ended)
        {
            case End.Starving:
                await terminal.Error.WriteLineAsync($"tplab: the pool of process {starving.ProcessId.ToString(CultureInfo.InvariantCulture)} is {(starving.Verdict == "starving" ? "starving" : "in " + starving.Verdict)} ({starving.Evidence}); {kept}").ConfigureAwait(false);
                return ExitCodes.Starving;
            case End.Interrupted:
                await terminal.Error.WriteLineAsync($"tplab: interrupted; {kept}").ConfigureAwait(false);
                return ExitCodes.Interrupted;
            case End.ProcessExited when only?.Watch.Child is { } child && options.Duration is null:
                // A started command ending is the natural end of `watch -- COMMAND` without --duration.
                await terminal.Error.WriteLineAsync($"tplab watch: the command exited ({child.LastLines(1)}); {kept}").ConfigureAwait(false);
                return ExitCodes.Ok;
            case End.ProcessExited:
                var who = only is not null ? $"process {only.ProcessId.ToString(CultureInfo.InvariantCulture)} exited" : "every watched process exited";
                await terminal.Error.WriteLineAsync($"tplab: {who} during the watch; {kept}").ConfigureAwait(false);
                return ExitCodes.ProcessExited;
            case End.SessionLost:
                // Without the runtime's events the watch would go on sampling /proc alone, with no verdict to give.
                await terminal.Error.WriteLineAsync($"tplab: process {only!.ProcessId.ToString(CultureInfo.InvariantCulture)} closed its diagnostic connection during the watch (it still runs); {kept}").ConfigureAwait(false);
                return ExitCodes.NoProcess;
            case End.Duration when discovering is not null && members.Count == 0:
                // -n NAME --all that never found a process watched nothing: not a success a CI step could take for one.
                await terminal.Error.WriteLineAsync($"tplab: no .NET process named '{options.Name}' appeared during the watch; nothing was watched").ConfigureAwait(false);
                return ExitCodes.NoProcess;
            default:
                return ExitCodes.Ok;
        }
    }

    // A saved watch written again in another format: the records in time order, then the summary, as a live watch delivers them.
    private static int Rewrite(WatchRunOptions options, string from, WatchTerminal terminal)
    {
        using var input = new StringReader(InputFile.ReadText(from, "--from", InputLimit.SavedWatch));
        var timeline = JsonlWatchReader.Read(input);
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
        OutputFailed,
        SessionLost,
    }

    private static async Task<End> WaitAsync(WatchFleet fleet, TimeSpan? duration, Task? starving, CancellationToken ct)
    {
        var timer = Task.Delay(duration ?? Timeout.InfiniteTimeSpan, ct);
        // The records are what the user asked for: once they cannot be written (a closed pipe, a full disk) the
        // watch ends at once, rather than watching on for no one.
        var finished = await Task.WhenAny(new[] { timer, fleet.AllExited, starving, fleet.RecordsFailed, fleet.SessionsEnded }.OfType<Task>()).ConfigureAwait(false);
        if (finished == fleet.SessionsEnded && !ct.IsCancellationRequested)
        {
            // No process sends events any more: each is exiting or closed its connection, which the fleet settles
            // within a moment; the duration must not end the watch as if it had seen the whole window.
            await Task.WhenAny(fleet.AllExited, Task.Delay(TimeSpan.FromSeconds(5), CancellationToken.None)).ConfigureAwait(false);
            finished = fleet.AllExited.IsCompleted ? fleet.AllExited : timer;
        }
        return finished == starving ? End.Starving
            : finished == fleet.RecordsFailed ? End.OutputFailed
            : finished == fleet.AllExited ? End.ProcessExited
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
