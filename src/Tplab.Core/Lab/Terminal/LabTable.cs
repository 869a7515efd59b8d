using Spectre.Console;
using Spectre.Console.Rendering;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load.Summary;
using Tplab.Reports.Terminal;

namespace Tplab.Lab.Terminal;

/// <summary>
/// An experiment's table: this run's figures beside the seed's published ones, one row per scenario, sized to the
/// terminal. Columns are kept in order of importance while they fit, no cell ever wraps, and what does not fit a cell
/// (each scenario's verdict evidence and injections) goes on lines under the table.
/// </summary>
internal sealed class LabTable(Experiment experiment, SeedFigures seeds)
{
    /// <summary>
    /// A column: its header, its cell per scenario (null when it has no value), its rank (0 = kept first), and its cell
    /// in an endpoint's row under a scenario with a request mix (null: empty).
    /// </summary>
    private sealed record Column(string Header, int Rank, Func<ScenarioResult, string?> Cell, bool Left = false, Func<TargetSummary, string?>? Endpoint = null);

    /// <summary>A row: a scenario, or one endpoint of its request mix.</summary>
    private readonly record struct Row(ScenarioResult Scenario, TargetSummary? Endpoint);

    // Left to right as shown; Rank says which go first when the terminal is narrow.
    private IReadOnlyList<Column> AllColumns() =>
    [
        new("scenario", 0, r => Cells.Escape(r.Scenario.Label + (r.Runs.Count > 1 ? $" ×{r.Runs.Count}" : "")), Left: true, Endpoint: e => Cells.Escape("  └ " + e.Label)),
        new("reqs", 12, r => Cells.Count(r.Load?.Summary.Requests), Endpoint: e => Cells.Count(e.Requests)),
        new("failed", 5, r => Cells.Count(r.Load?.Summary.Failed), Endpoint: e => Cells.Count(e.Failed)),
        new("mean", 1, r => Repeated(r, f => f.MeanMs, r.Load?.Summary.LatencyMs.Mean, Cells.Ms, range: true), Endpoint: e => Cells.Ms(e.LatencyMs.Mean)),
        new("p50", 14, r => Repeated(r, f => f.P50Ms, r.Load?.Summary.LatencyMs.P50, Cells.Ms, range: false), Endpoint: e => Cells.Ms(e.LatencyMs.P50)),
        new("p99", 2, r => Repeated(r, f => f.P99Ms, r.Load?.Summary.LatencyMs.P99, Cells.Ms, range: true), Endpoint: e => Cells.Ms(e.LatencyMs.P99)),
        new("max", 7, r => Repeated(r, f => f.MaxMs, r.Load?.Summary.LatencyMs.Max, Cells.Ms, range: false), Endpoint: e => Cells.Ms(e.LatencyMs.Max)),
        new("waited mean", 6, r => Optional(Split(r)?.WaitedMean)),
        new("waited p99", 10, r => Optional(Split(r)?.WaitedP99)),
        new("req/s", 8, r => Repeated(r, f => f.RequestsPerSecond, r.Load?.Summary.ThroughputPerSecond, Cells.Rate, range: true), Endpoint: e => Cells.Rate(e.DurationSeconds > 0 ? e.Requests / e.DurationSeconds : null)),
        new("threads", 9, ScenarioCells.Threads),
        new("verdict", 4, ScenarioCells.Verdict),
        new("seed mean", 3, r => Seed(r, "meanMs", Cells.Ms)),
        new("seed max", 13, r => Seed(r, "maxMs", Cells.Ms)),
        new("seed req/s", 11, r => Seed(r, "requestsPerSecond", Cells.Rate)),
    ];

    private readonly List<ScenarioResult> _done = [];

    /// <summary>The running scenario's progress line (markup), or null.</summary>
    public string? Running { get; set; }

    public void Add(ScenarioResult result) => _done.Add(result);

    /// <summary>The table so far for a terminal <paramref name="width"/> columns wide, the running scenario's progress under it.</summary>
    public IRenderable Render(int width) => Running is { } line ? new Rows(Table(width), Cells.Hanging(" ", line)) : Table(width);

    /// <summary>One line per finished scenario with what a cell cannot hold: the verdict's evidence and the injections by reason.</summary>
    public IRenderable Details()
    {
        var lines = new List<IRenderable>();
        foreach (var r in _done)
        {
            var text = r.Timeline is { } t
                ? $"{ScenarioCells.Verdict(r)} — {Cells.Escape(t.Evidence)}; injections: {Cells.Escape(ScenarioCells.Injections(r))}"
                : r.Status == ScenarioStatus.Failed && r.Error is { } error ? $"{ScenarioCells.Verdict(r)} — {Cells.Escape(error)}"
                : $"{ScenarioCells.Verdict(r)} — the pool was not watched";
            lines.Add(Cells.Hanging("  •", $"[bold]{Cells.Escape(r.Scenario.Label)}[/]: {text}"));
        }
        return new Rows(lines);
    }

    /// <summary>The columns that fit <paramref name="width"/>, in display order; columns with no value in any row are left out.</summary>
    internal IReadOnlyList<string> ChooseColumns(int width) => [.. Choose(width).Select(c => c.Column.Header)];

    private List<(Column Column, string?[] Cells)> Choose(int width)
    {
        var rows = Rows().ToList();
        var all = AllColumns()
            .Select(c => (Column: c, Cells: rows.Select(row => CellOf(c, row)).ToArray()))
            .Where(c => c.Column.Rank == 0 || _done.Count == 0 || c.Cells.Any(v => v is not null and not "–"))
            .ToList();
        // Simple border: one space of padding each side of a cell plus one separator per column, and one at the end.
        static int WidthOf((Column Column, string?[] Cells) c) =>
            Math.Max(c.Column.Header.Length, c.Cells.Select(v => Markup.Remove(v ?? "–").Length).DefaultIfEmpty(0).Max()) + 3;
        var kept = new HashSet<Column>();
        var used = 1;
        foreach (var c in all.OrderBy(c => c.Column.Rank))
        {
            var w = WidthOf(c);
            if (c.Column.Rank == 0 || used + w <= width)
            {
                kept.Add(c.Column);
                used += w;
            }
        }
        return [.. all.Where(c => kept.Contains(c.Column))];
    }

    private Table Table(int width)
    {
        var table = new Table().Border(TableBorder.Simple).Title($"[bold]{Cells.Escape(experiment.Name)}[/]");
        var columns = Choose(width);
        foreach (var (column, _) in columns)
        {
            var c = new TableColumn(column.Header).NoWrap();
            table.AddColumn(column.Left ? c.LeftAligned() : c.RightAligned());
        }
        var rows = Rows().ToList();
        for (var row = 0; row < rows.Count; row++)
        {
            // An endpoint row leaves empty what only a scenario has (threads, verdict, seed figures).
            var empty = rows[row].Endpoint is null ? "–" : "";
            table.AddRow([.. columns.Select(c => c.Cells[row] ?? empty)]);
        }
        if (experiment.Seeds.Count > 0)
        {
            table.Caption("[grey]seed: as published in " + Cells.Escape(string.Join(", ", experiment.Seeds)) + " (a range's middle where only a range was given)[/]");
        }
        return table;
    }

    // With --repeat: the mean over the runs, and where asked the range (lowest–highest run) in brackets.
    private static string Repeated(ScenarioResult r, Func<RunFigures, double?> figure, double? single, Func<double?, string> format, bool range) =>
        r.SpreadOf(figure) is { } sp ? format(sp.Mean) + (range ? $" ({format(sp.Min)}–{format(sp.Max)})" : "") : format(single);

    // A scenario's row, then one row per endpoint when its request mix has several.
    private IEnumerable<Row> Rows() => _done.SelectMany(r => r.Endpoints.Count > 1
        ? [new Row(r, null), .. r.Endpoints.Select(e => new Row(r, e))]
        : new[] { new Row(r, null) });

    private static string? CellOf(Column c, Row row) => row.Endpoint is { } e ? c.Endpoint?.Invoke(e) : c.Cell(row.Scenario);

    private string? Seed(ScenarioResult r, string field, Func<double?, string> format) =>
        seeds.FigureOrMidRange(experiment.Name, r.Scenario.Id, field) is double v ? format(v) : null;

    private static string? Optional(double? ms) => ms is null ? null : Cells.Ms(ms);

    // Present when the target stamped Server-Timing: handler (tplab's target always does).
    private static (double WaitedMean, double WaitedP99)? Split(ScenarioResult r) =>
        r.Load?.Summary.HandlerTiming is { } t ? (t.WaitedForThreadMs.Mean, t.WaitedForThreadMs.P99) : null;
}
