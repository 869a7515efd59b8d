using Spectre.Console;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// <c>--format live</c>: the frame of <see cref="LiveFrame"/> redrawn in place on an interactive terminal (cursor moved
/// back over the previous frame), or one verdict line per sample when the console cannot move the cursor.
/// </summary>
public sealed class LiveWatchView(IAnsiConsole console, string title) : IWatchSink
{
    private readonly List<ThreadPoolInjection> _injections = [];
    private ThreadPoolSample? _first;
    private int _threadsPeak;
    private long _queuePeak;
    private int _drawn;

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
        if (_drawn > 0)
        {
            console.Cursor.MoveUp(_drawn);
        }
        for (var i = 0; i < lines.Count; i++)
        {
            // Clear the old line first: the new one may be shorter.
            console.Write(new ControlCode("\u001b[2K"));
            console.Write(new Text(Fit(lines[i], console.Profile.Width) + "\n", i == 1 ? VerdictStyle(sample.Verdict) : Style.Plain));
        }
        for (var i = lines.Count; i < _drawn; i++)
        {
            console.Write(new ControlCode("\u001b[2K\n"));
        }
        _drawn = Math.Max(_drawn, lines.Count);
    }

    public void OnCompleted(PoolTimeline timeline)
    {
        console.WriteLine(timeline.HasVerdict ? $"watch {timeline.Verdict.ToWord()}: {timeline.Evidence}" : timeline.Evidence,
            timeline.HasVerdict ? VerdictStyle(timeline.Verdict) : Style.Plain);
        if (timeline.DelayNote is { } note)
        {
            console.WriteLine(note, Style.Plain);
        }
    }

    // A wrapped line would break the redraw (the cursor moves back by lines drawn), so lines are cut to the width.
    private static string Fit(string line, int width) => width > 1 && line.Length >= width ? line[..(width - 2)] + "…" : line;

    private static Style VerdictStyle(PoolVerdict verdict) => verdict switch
    {
        PoolVerdict.Starving or PoolVerdict.LockContention => new Style(Color.Red, decoration: Decoration.Bold),
        PoolVerdict.Recovering or PoolVerdict.CpuSaturated => new Style(Color.Yellow),
        _ => new Style(Color.Green),
    };
}
