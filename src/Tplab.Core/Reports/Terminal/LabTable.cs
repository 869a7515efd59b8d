using Spectre.Console;
using Spectre.Console.Rendering;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;

namespace Tplab.Reports.Terminal;

/// <summary>An experiment's table: this run's figures beside the seed's published ones, one row per scenario.</summary>
internal sealed class LabTable(Experiment experiment, SeedFigures seeds)
{
    private static readonly string[] Columns =
        ["scenario", "reqs", "failed", "mean", "p50", "p99", "max", "req/s", "threads", "injections", "verdict", "seed mean", "seed max", "seed req/s"];

    private readonly List<ScenarioResult> _done = [];

    public string? Running { get; set; }

    public void Add(ScenarioResult result) => _done.Add(result);

    /// <summary>The table so far, with the running scenario's progress line under it.</summary>
    public IRenderable Render() => Running is { } line ? new Rows(Table(), new Markup("  " + line)) : Table();

    private Table Table()
    {
        var table = new Table().Border(TableBorder.Simple).Title($"[bold]{Cells.Escape(experiment.Name)}[/]");
        foreach (var c in Columns)
        {
            table.AddColumn(new TableColumn(c).RightAligned());
        }
        table.Columns[0].LeftAligned();
        table.Columns[8].NoWrap();
        table.Columns[10].NoWrap();
        foreach (var r in _done)
        {
            var s = r.Load?.Summary;
            var seed = (string field) => seeds.FigureOrMidRange(experiment.Name, r.Scenario.Id, field);
            // With --repeat: the mean over the runs, and for mean, p99 and req/s the range (lowest–highest run).
            string Ms(Func<RunFigures, double?> f, double? single, bool range) =>
                r.SpreadOf(f) is { } sp ? Cells.Ms(sp.Mean) + (range ? $" ({Cells.Ms(sp.Min)}–{Cells.Ms(sp.Max)})" : "") : Cells.Ms(single);
            table.AddRow(
                Cells.Escape(r.Scenario.Label + (r.Runs.Count > 1 ? $" ×{r.Runs.Count}" : "")), Cells.Count(s?.Requests), Cells.Count(s?.Failed),
                Ms(f => f.MeanMs, s?.LatencyMs.Mean, true), Ms(f => f.P50Ms, s?.LatencyMs.P50, false), Ms(f => f.P99Ms, s?.LatencyMs.P99, true), Ms(f => f.MaxMs, s?.LatencyMs.Max, false),
                r.SpreadOf(f => f.RequestsPerSecond) is { } rps ? $"{Cells.Rate(rps.Mean)} ({Cells.Rate(rps.Min)}–{Cells.Rate(rps.Max)})" : Cells.Rate(s?.ThroughputPerSecond),
                Cells.Threads(r), Cells.Escape(Cells.Injections(r)), Cells.Verdict(r),
                Cells.Ms(seed("meanMs")), Cells.Ms(seed("maxMs")), Cells.Rate(seed("requestsPerSecond")));
            // A request mix of several endpoints (the user's service): one row per endpoint under the scenario.
            foreach (var e in r.Endpoints.Count > 1 ? r.Endpoints : [])
            {
                table.AddRow(
                    Cells.Escape("  └ " + e.Label), Cells.Count(e.Requests), Cells.Count(e.Failed), Cells.Ms(e.MeanMs), Cells.Ms(e.P50Ms), Cells.Ms(e.P99Ms), Cells.Ms(e.MaxMs),
                    Cells.Rate(e.RequestsPerSecond), "", "", "", "", "", "");
            }
        }
        if (experiment.Seeds.Count > 0)
        {
            table.Caption("[grey]seed figures: published in " + Cells.Escape(string.Join(", ", experiment.Seeds)) + "; where a seed gave only a range (002), its middle[/]");
        }
        return table;
    }
}
