using System.Globalization;
using Spectre.Console;
using Tplab.Processes;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// <c>--format live</c> for several processes: one row per process (pid, name, verdict, threads, queue, completed/s,
/// CPU, the measured delay and the estimate), redrawn in place; an exited process keeps its last row, marked.
/// Fed by several sampling threads through one lock (the fleet's), so it draws one frame at a time.
/// </summary>
public sealed class FleetLiveView(IAnsiConsole console, string title) : IWatchSink
{
    private readonly SortedDictionary<int, (string Name, ThreadPoolSample Sample, string? Ended)> _rows = [];
    private int _drawn;

    public void OnInjection(ThreadPoolInjection injection)
    {
    }

    public void OnSample(ThreadPoolSample sample)
    {
        ArgumentNullException.ThrowIfNull(sample);
        var name = _rows.TryGetValue(sample.ProcessId, out var row) ? row.Name : ProcessFinder.AppName(sample.ProcessId);
        _rows[sample.ProcessId] = (name, sample, null);
        if (!console.Profile.Capabilities.Ansi)
        {
            // A console that cannot move the cursor gets each process's verdict line as it comes.
            console.WriteLine($"pid {sample.ProcessId.ToString(CultureInfo.InvariantCulture)} {sample.Verdict.ToWord().ToUpperInvariant()}: {sample.Evidence}", Style.Plain);
            return;
        }
        Draw(sample.Offset);
    }

    public void OnCompleted(PoolTimeline timeline)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        if (_rows.TryGetValue(timeline.ProcessId, out var row))
        {
            _rows[timeline.ProcessId] = row with { Ended = timeline.ProcessExited ? "exited" : "ended" };
        }
        var pid = timeline.ProcessId.ToString(CultureInfo.InvariantCulture);
        console.WriteLine(timeline.HasVerdict ? $"pid {pid}: watch {timeline.Verdict.ToWord()}: {timeline.Evidence}" : $"pid {pid}: {timeline.Evidence}");
        _drawn = 0;
    }

    /// <summary>The frame's lines: the title, a header, a row per process.</summary>
    public IReadOnlyList<string> Lines(TimeSpan at)
    {
        var lines = new List<string>
        {
            $"{title}, at {at.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s, {_rows.Count.ToString(CultureInfo.InvariantCulture)} processes",
            $"  {"pid",7} {"name",-18} {"verdict",-16}{"threads",8}{"queue",8}{"done/s",9}{"CPU",7} {"delay p99",12} {"estimate",10}",
        };
        foreach (var (pid, (name, s, ended)) in _rows)
        {
            var verdict = ended ?? s.Verdict.ToWord();
            lines.Add($"  {pid,7} {Cut(name, 18),-18} {verdict,-16}{s.ThreadCount,8}{s.QueueLength,8}{s.CompletedPerSecond.ToString("0", CultureInfo.InvariantCulture),9}{(s.CpuPercent.ToString("0", CultureInfo.InvariantCulture) + "%"),7} {LiveFrame.MeasuredDelay(s),12} {LiveFrame.Ms(s.EstimatedDelayMs),10}");
        }
        return lines;
    }

    private void Draw(TimeSpan at)
    {
        var lines = Lines(at);
        if (_drawn > 0)
        {
            console.Cursor.MoveUp(_drawn);
        }
        foreach (var line in lines)
        {
            console.Write(new ControlCode("\u001b[2K"));
            console.Write(new Text(Fit(line, console.Profile.Width) + "\n", Style.Plain));
        }
        for (var i = lines.Count; i < _drawn; i++)
        {
            console.Write(new ControlCode("\u001b[2K\n"));
        }
        _drawn = Math.Max(_drawn, lines.Count);
    }

    private static string Cut(string text, int width) => text.Length <= width ? text : text[..(width - 1)] + "…";

    private static string Fit(string line, int width) => width > 1 && line.Length >= width ? line[..(width - 2)] + "…" : line;
}
