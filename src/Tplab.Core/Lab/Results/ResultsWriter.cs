using System.Text.Json;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load.Formats;
using Tplab.Reports.Html;
using Tplab.Watch.Output;

namespace Tplab.Lab.Results;

/// <summary>
/// Writes the results folder: per scenario its request CSV and timeline JSONL as soon as it ends; summary.json
/// and report.html after every experiment (and at the end), so a killed run keeps everything that finished.
/// </summary>
internal sealed class ResultsWriter(string folder, LabOptions options, SeedFigures seeds)
{
    private readonly Dictionary<string, SeriesJson> _series = new(StringComparer.Ordinal);
    private readonly DateTimeOffset _startedAt = options.Time.GetUtcNow();

    /// <summary>A scenario's file, e.g. <c>ab-100/sleep.requests.csv</c>; with --repeat, <c>ab-100/sleep.run2.requests.csv</c>.</summary>
    public static string RelativeFile(Scenario s, string kind, int run = 0) =>
        run > 0 ? $"{FileNames.Segment(s.Experiment)}/{FileNames.Segment(s.Id)}.run{run.ToString(System.Globalization.CultureInfo.InvariantCulture)}.{kind}" : $"{FileNames.Segment(s.Experiment)}/{FileNames.Segment(s.Id)}.{kind}";

    /// <summary>Writes one run's request CSV and pool timeline.</summary>
    public void WriteScenarioFiles(ScenarioResult result)
    {
        var s = result.Scenario;
        if (result.Load is null && result.Timeline is null)
        {
            return;
        }
        Guard(() =>
        {
            Directory.CreateDirectory(Path.Combine(folder, FileNames.Segment(s.Experiment)));
            if (result.Load is { } load)
            {
                AtomicFile.Write(Path.Combine(folder, RelativeFile(s, "requests.csv", result.Run)), w => new CsvFormat().Write(load.Records, load.StartedAt, w));
            }
            if (result.Timeline is { } timeline)
            {
                AtomicFile.Write(Path.Combine(folder, RelativeFile(s, "timeline.jsonl", result.Run)), w => JsonlWatchWriter.WriteTimeline(timeline, w));
            }
        });
    }

    /// <summary>Adds the scenario's charts to report.html (with --repeat, the representative run's).</summary>
    public void AddCharts(ScenarioResult result)
    {
        // The charts count from the load's start; the pool's samples are shifted to line up with it.
        var (requests, percentiles) = result.Load is { } load ? RequestSeries.Build(load.Records) : (RequestSeriesJson.None, PercentilesJson.None);
        var shift = result.Load is { } started ? (started.StartedAt - result.WatchStartedAt).TotalSeconds : 0;
        var (pool, injections) = result.Timeline is { } timeline ? PoolSeries.Build(timeline, shift) : (PoolSeriesJson.None, InjectionSeriesJson.None);
        _series[$"{result.Scenario.Experiment}/{result.Scenario.Id}"] = new SeriesJson(requests, pool, injections, percentiles);
    }

    /// <summary>Writes summary.json and, unless <paramref name="reportToo"/> is false, report.html.</summary>
    public void WriteSummary(LabResult lab, bool reportToo = true)
    {
        var summary = SummaryJson.From(lab, options, seeds, _startedAt, options.Time.GetUtcNow());
        Guard(() =>
        {
            // Rewritten after every scenario (the report after every experiment): a reader, or a run killed mid-write,
            // sees the previous version whole.
            AtomicFile.Write(Path.Combine(folder, "summary.json"), w => TplabJson.Write(summary, SummaryJsonContext.Indented.SummaryJson, w));
            if (reportToo)
            {
                var data = JsonSerializer.SerializeToNode(summary, SummaryJsonContext.Indented.SummaryJson)!;
                AtomicFile.Write(Path.Combine(folder, "report.html"), w => HtmlReport.Write(w, ReportKind.Lab, data, _series));
            }
        });
    }

    private void Guard(Action write)
    {
        try
        {
            write();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write results into {folder}: {e.Message}");
        }
    }
}
