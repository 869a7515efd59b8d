using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Reports.Html;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// <c>--format html</c>: when the watch ends, one self-contained page with the pool over time (pool threads, OS
/// threads, queue, completed/s, CPU, the injections by reason) and the verdict with its evidence. Nothing is written
/// before the end: a page is only useful whole.
/// </summary>
public sealed class HtmlWatchWriter(TextWriter writer) : IWatchSink
{
    /// <inheritdoc />
    public void OnInjection(ThreadPoolInjection injection)
    {
    }

    /// <inheritdoc />
    public void OnSample(ThreadPoolSample sample)
    {
    }

    /// <inheritdoc />
    public void OnCompleted(PoolTimeline timeline)
    {
        Write(timeline, writer);
        writer.Flush();
    }

    /// <summary>
    /// Writes the page of a whole <paramref name="timeline"/>, stamped with when the watch began: a page written again
    /// from a saved file (<c>--from</c>) shows the watch's start, not the time it was written; "unknown" for a file that
    /// did not keep it.
    /// </summary>
    public static void Write(PoolTimeline timeline, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        var page = new WatchPageJson(
            "tplab " + typeof(HtmlWatchWriter).Assembly.GetName().Version?.ToString(3),
            timeline.StartedAt?.ToString("O", CultureInfo.InvariantCulture) ?? "unknown (the file did not keep it)",
            new WatchPageSummaryJson(
                timeline.ProcessId, timeline.Interval.TotalMilliseconds, timeline.Duration.TotalSeconds, timeline.HasVerdict ? timeline.Verdict.ToWord() : null,
                timeline.Evidence, timeline.ThreadsStart, timeline.ThreadsPeak, timeline.OsThreadsPeak, timeline.QueuePeak, timeline.InjectionsByReason)
            {
                DelayNote = timeline.DelayNote,
            });
        var series = new Dictionary<string, SeriesJson> { ["watch"] = PoolSeries.Alone(timeline) };
        HtmlReport.Write(writer, ReportKind.Watch, JsonSerializer.SerializeToNode(page, WatchJsonContext.Lines.WatchPageJson)!, series);
    }
}

/// <summary>The summary a watch's page draws: the tool, when the watch started, and the watch.</summary>
public sealed record WatchPageJson(string Tool, string StartedAt, WatchPageSummaryJson Watch);

/// <summary>The watch on its page: the process, the interval, the verdict (null when no sample was taken) and the peaks.</summary>
public sealed record WatchPageSummaryJson(
    int Pid,
    double IntervalMs,
    [property: JsonConverter(typeof(Round3))] double DurationSeconds,
    string? Verdict,
    string Evidence,
    int ThreadsStart,
    int ThreadsPeak,
    int OsThreadsPeak,
    long QueuePeak,
    IReadOnlyDictionary<string, int> InjectionsByReason)
{
    /// <summary>Why the scheduling delay was not measured, when it was not.</summary>
    public string? DelayNote { get; init; }
}
