using System.Globalization;
using Spectre.Console;
using Tplab.Common;
using Tplab.Watch;
using Tplab.Watch.Output;

namespace Tplab.Cli.Commands;

/// <summary>Runs one <c>tplab watch</c>: opens the output, watches until the duration, Ctrl+C or the process exits.</summary>
internal static class WatchRunner
{
    public static async Task<int> RunAsync(WatchCommandOptions options, CancellationToken ct)
    {
        using var file = OpenOutput(options.Output);
        var writer = file ?? Console.Out;
        var title = options.ProcessId is { } p ? $"tplab watch: pid {p.ToString(CultureInfo.InvariantCulture)}" : $"tplab watch: {string.Join(' ', options.Command)}";
        IWatchSink sink = options.Format switch
        {
            "jsonl" => new JsonlWatchWriter(writer),
            "csv" => new CsvWatchWriter(writer),
            "html" => new HtmlWatchWriter(writer),
            _ => new LiveWatchView(AnsiConsole.Console, $"{title}, every {options.Interval.TotalSeconds.ToString("0.00", CultureInfo.InvariantCulture)} s"),
        };
        var watchOptions = new WatchOptions { Interval = options.Interval, Sink = sink }.Validated();
        await using var watch = options.ProcessId is { } pid
            ? await ThreadPoolWatch.StartAsync(pid, watchOptions, ct)
            : await ThreadPoolWatch.LaunchAsync(options.Command, watchOptions, ct);
        if (options.Format != "live")
        {
            await Console.Error.WriteLineAsync($"tplab watch: watching pid {watch.ProcessId.ToString(CultureInfo.InvariantCulture)} every {options.Interval.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s");
        }
        var ended = await WaitAsync(watch, options.Duration, ct);
        var timeline = await watch.StopAsync();
        if (watch.SinkError is { } e)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {options.Output ?? "the output"}: {e.Message}", e);
        }
        var kept = $"the data so far was kept ({timeline.Samples.Count.ToString(CultureInfo.InvariantCulture)} samples, {timeline.Injections.Count.ToString(CultureInfo.InvariantCulture)} injections)";
        switch (ended)
        {
            case End.Interrupted:
                await Console.Error.WriteLineAsync($"tplab: interrupted; {kept}");
                return ExitCodes.Interrupted;
            case End.ProcessExited when watch.Child is { } child && options.Duration is null:
                // A started command ending is the natural end of `watch -- COMMAND` without --duration.
                await Console.Error.WriteLineAsync($"tplab watch: the command exited ({child.LastLines(1)}); {kept}");
                return ExitCodes.Ok;
            case End.ProcessExited:
                await Console.Error.WriteLineAsync($"tplab: process {watch.ProcessId.ToString(CultureInfo.InvariantCulture)} exited during the watch; {kept}");
                return ExitCodes.ProcessExited;
            default:
                return ExitCodes.Ok;
        }
    }

    private enum End
    {
        Duration,
        Interrupted,
        ProcessExited,
    }

    private static async Task<End> WaitAsync(ThreadPoolWatch watch, TimeSpan? duration, CancellationToken ct)
    {
        var timer = Task.Delay(duration ?? Timeout.InfiniteTimeSpan, ct);
        var finished = await Task.WhenAny(timer, watch.ProcessGone);
        return finished == watch.ProcessGone ? End.ProcessExited : ct.IsCancellationRequested ? End.Interrupted : End.Duration;
    }

    private static StreamWriter? OpenOutput(string? path)
    {
        if (path is null)
        {
            return null;
        }
        try
        {
            return new StreamWriter(path, append: false) { AutoFlush = false };
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not open --output {path}: {e.Message}", e);
        }
    }
}
