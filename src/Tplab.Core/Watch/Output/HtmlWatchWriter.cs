using System.Globalization;
using System.Text.Json.Nodes;
using Tplab.Reports.Html;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// <c>--format html</c>: when the watch ends, one self-contained page with the pool over time (pool threads, OS
/// threads, queue, completed/s, CPU, the injections by reason) and the verdict with its evidence. Nothing is written
/// before the end: a page is only useful whole.
/// </summary>
public sealed class HtmlWatchWriter(TextWriter writer, TimeProvider? time = null) : IWatchSink
{
    private readonly DateTimeOffset _startedAt = (time ?? TimeProvider.System).GetUtcNow();

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
        Write(timeline, _startedAt, writer);
        writer.Flush();
    }

    /// <summary>Writes the page of a whole <paramref name="timeline"/> that started at <paramref name="startedAt"/>.</summary>
    public static void Write(PoolTimeline timeline, DateTimeOffset startedAt, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        var summary = new JsonObject
        {
            ["tool"] = "tplab " + typeof(HtmlWatchWriter).Assembly.GetName().Version?.ToString(3),
            ["startedAt"] = startedAt.ToString("O", CultureInfo.InvariantCulture),
            ["watch"] = new JsonObject
            {
                ["pid"] = timeline.ProcessId,
                ["intervalMs"] = timeline.Interval.TotalMilliseconds,
                ["durationSeconds"] = Math.Round(timeline.Duration.TotalSeconds, 3),
                ["verdict"] = timeline.HasVerdict ? timeline.Verdict.ToWord() : null,
                ["delayNote"] = timeline.DelayNote,
                ["evidence"] = timeline.Evidence,
                ["threadsStart"] = timeline.ThreadsStart,
                ["threadsPeak"] = timeline.ThreadsPeak,
                ["osThreadsPeak"] = timeline.OsThreadsPeak,
                ["queuePeak"] = timeline.QueuePeak,
                ["injectionsByReason"] = new JsonObject(timeline.InjectionsByReason.Select(kv => KeyValuePair.Create(kv.Key, (JsonNode?)JsonValue.Create(kv.Value)))),
            },
        };
        var series = new JsonObject { ["watch"] = ReportSeries.Build(load: null, timeline, startedAt) };
        HtmlReport.Write(writer, ReportKind.Watch, summary, series);
    }
}
