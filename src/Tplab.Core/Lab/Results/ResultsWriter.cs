using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
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
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };
    private readonly JsonObject _series = [];
    private readonly DateTimeOffset _startedAt = options.Time.GetUtcNow();

    public static string RelativeFile(Scenario s, string kind) => $"{s.Experiment}/{s.Id}.{kind}";

    public void WriteScenario(ScenarioResult result)
    {
        var s = result.Scenario;
        Guard(() =>
        {
            Directory.CreateDirectory(Path.Combine(folder, s.Experiment));
            if (result.Load is { } load)
            {
                AtomicFile.Write(Path.Combine(folder, RelativeFile(s, "requests.csv")), w => new CsvFormat().Write(load.Records, load.StartedAt, w));
            }
            if (result.Timeline is { } timeline)
            {
                AtomicFile.Write(Path.Combine(folder, RelativeFile(s, "timeline.jsonl")), w => JsonlWatchWriter.WriteTimeline(timeline, w));
            }
        });
        _series[$"{s.Experiment}/{s.Id}"] = ChartSeries.Build(result);
    }

    public void WriteSummary(LabResult lab)
    {
        var summary = SummaryJson.Build(lab, options, seeds, _startedAt, options.Time.GetUtcNow());
        Guard(() =>
        {
            // Rewritten after every experiment: a reader, or a run killed mid-write, sees the previous version whole.
            AtomicFile.WriteAllText(Path.Combine(folder, "summary.json"), summary.ToJsonString(Indented));
            AtomicFile.Write(Path.Combine(folder, "report.html"), w => HtmlReport.Write(w, summary, _series));
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
