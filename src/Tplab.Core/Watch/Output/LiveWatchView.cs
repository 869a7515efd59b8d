using Spectre.Console;
using Tplab.Reports.Terminal;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// <c>--format live</c>: the frame of <see cref="LiveFrame"/> redrawn in place on an interactive terminal (a
/// <see cref="LiveRegion"/>), or one verdict line per sample when the console cannot move the cursor.
/// </summary>
public sealed class LiveWatchView(IAnsiConsole console, string title) : IWatchSink
{
    private readonly List<ThreadPoolInjection> _injections = [];
    private readonly LiveRegion _region = new(console);
    private ThreadPoolSample? _first;
    private int _threadsPeak;
    private long _queuePeak;

    public void OnInjection(ThreadPoolInjection injection) => _injections.Add(injection);

    public void OnSample(ThreadPoolSample sample)
    {
        _first ??= sample;
        _threadsPeak = Math.Max(_threadsPeak, sample.ThreadCount);
        _queuePeak = Math.Max(_queuePeak, sample.QueueLength);
        var lines = LiveFrame.Lines(title, sample, _injections, _first, _threadsPeak, _queuePeak);
        if (!console.Profile.Capabilities.Ansi)
        {
            console.WriteLine(lines[1], Style.Plain);
            return;
        }
        _region.Update(new Rows(lines.Select((line, i) => new Text(Fit(line, console.Profile.Width), i == 1 ? VerdictStyle(sample.Verdict) : Style.Plain))));
    }

    public void OnCompleted(PoolTimeline timeline)
    {
        _region.Close();
        console.WriteLine(timeline.HasVerdict ? $"watch {timeline.Verdict.ToWord()}: {timeline.Evidence}" : timeline.Evidence,
            timeline.HasVerdict ? VerdictStyle(timeline.Verdict) : Style.Plain);
        if (timeline.DelayNote is { } note)
        {
            console.WriteLine(note, Style.Plain);
        }
    }

    // A line wider than the terminal would wrap and the frame jump as it changes: lines are cut to the width.
    private static string Fit(string line, int width) => width > 1 && line.Length >= width ? line[..(width - 2)] + "…" : line;

    private static Style VerdictStyle(PoolVerdict verdict) => verdict switch
    {
        PoolVerdict.Starving or PoolVerdict.LockContention => new Style(Color.Red, decoration: Decoration.Bold),
        PoolVerdict.Recovering or PoolVerdict.CpuSaturated => new Style(Color.Yellow),
        _ => new Style(Color.Green),
    };
}
