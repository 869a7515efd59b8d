using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// Reads back what <see cref="JsonlWatchWriter"/> wrote (<c>tplab watch --format jsonl</c>, or a lab scenario's
/// timeline.jsonl) into a <see cref="PoolTimeline"/>, through the same records (<see cref="WatchLine"/>), so a saved
/// watch can be written again in another format (<c>tplab watch --from FILE.jsonl --format html</c>). A file cut short
/// (a watch killed while writing: no summary, perhaps half a last line) is read up to its last whole line.
/// </summary>
public static class JsonlWatchReader
{
    /// <summary>The timeline in <paramref name="reader"/>; a usage error naming the line when a line is not a watch record.</summary>
    public static PoolTimeline Read(TextReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        var samples = new List<ThreadPoolSample>();
        var injections = new List<ThreadPoolInjection>();
        SummaryLine? summary = null;
        var number = 0;
        var line = reader.ReadLine();
        while (line is not null)
        {
            number++;
            var next = reader.ReadLine();
            if (!string.IsNullOrWhiteSpace(line))
            {
                switch (Parse(line, number, last: next is null))
                {
                    case SampleLine s:
                        Seconds(s.OffsetSeconds, "offsetSeconds", number, MaxSeconds);
                        // Text from the file is printed by every format (live, csv): escaped once, here, where it enters tplab.
                        samples.Add((s with { Evidence = TerminalText.Escape(s.Evidence) }).ToSample());
                        break;
                    case InjectionLine i:
                        Seconds(i.OffsetSeconds, "offsetSeconds", number, MaxSeconds);
                        injections.Add(i.ToInjection());
                        break;
                    case SummaryLine t when summary is null:
                        Seconds(t.IntervalSeconds, "intervalSeconds", number, 3600);
                        Seconds(t.DurationSeconds, "durationSeconds", number, MaxSeconds);
                        summary = t with { Evidence = TerminalText.Escape(t.Evidence), DelayNote = t.DelayNote is null ? null : TerminalText.Escape(t.DelayNote) };
                        break;
                }
            }
            line = next;
        }
        if (samples.Count == 0)
        {
            throw TplabException.Usage("no samples: not a tplab watch --format jsonl file");
        }
        // A file of several processes (watch PID PID, -n NAME --all) is read as one process's: the first summary's, or
        // the first sample's.
        var pid = summary?.ProcessId ?? samples[0].ProcessId;
        if (samples.Select(s => s.ProcessId).Where(p => p != 0).Distinct().Skip(1).Any())
        {
            samples.RemoveAll(s => s.ProcessId != pid);
            injections.RemoveAll(i => i.ProcessId != 0 && i.ProcessId != pid);
        }
        if (summary is null)
        {
            return new PoolTimeline(pid, UsualGap(samples), samples[^1].Offset, samples, injections, limits: null, processExited: false);
        }
        return new PoolTimeline(
            summary.ProcessId, TimeSpan.FromSeconds(summary.IntervalSeconds), TimeSpan.FromSeconds(summary.DurationSeconds), samples, injections,
            summary.Limits, summary.ProcessExited, summary.Verdict is { } verdict ? new VerdictResult(verdict, summary.Evidence) : null)
        {
            DelayNote = summary.DelayNote,
            StartedAt = summary.StartedAt,
        };
    }

    /// <summary>The longest offset or duration a watch file may hold: a year, far within what a TimeSpan can hold.</summary>
    private const double MaxSeconds = 366 * 24 * 3600;

    // A figure of seconds read from the file, before it becomes a TimeSpan (1e300 seconds would overflow one).
    private static void Seconds(double value, string field, int number, double max)
    {
        if (!(value >= 0 && value <= max))
        {
            throw TplabException.Usage(string.Create(CultureInfo.InvariantCulture,
                $"line {number}: {field} must be from 0 to {max} seconds, got {value}: not a tplab watch --format jsonl file"));
        }
    }

    // Without a summary (the watch was killed) the interval is the usual gap between samples: the median, since the first
    // sample comes when the runtime's first counters arrive, not one interval after the start.
    private static TimeSpan UsualGap(List<ThreadPoolSample> samples)
    {
        if (samples.Count < 2)
        {
            return TimeSpan.FromSeconds(1);
        }
        var gaps = samples.Zip(samples.Skip(1), (a, b) => b.Offset - a.Offset).Order().ToList();
        return TimeSpan.FromSeconds(Math.Round(gaps[gaps.Count / 2].TotalSeconds, 2));
    }

    // A last line that is not JSON was cut by a kill mid-write: the whole lines before it are the watch. Anywhere else,
    // or JSON that is not a watch record, it is not a watch file.
    private static WatchLine? Parse(string line, int number, bool last)
    {
        try
        {
            return JsonSerializer.Deserialize(line, WatchJsonContext.Lines.WatchLine);
        }
        catch (JsonException) when (last && !IsJson(line))
        {
            return null;
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or InvalidOperationException or FormatException)
        {
            throw TplabException.Usage($"line {number.ToString(CultureInfo.InvariantCulture)} is not a tplab watch record: {TplabJson.Reason(e)}");
        }
    }

    private static bool IsJson(string line)
    {
        try
        {
            using var _ = JsonDocument.Parse(line);
            return true;
        }
        catch (JsonException)
        {
            return false;
        }
    }
}
