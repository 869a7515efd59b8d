using Spectre.Console;
using Spectre.Console.Rendering;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;

namespace Tplab.Reports.Terminal;

/// <summary>
/// An experiment's table: this run's figures beside the seed's published ones, one row per scenario, sized to the
/// terminal. Columns are kept in order of importance while they fit, no cell ever wraps, and what does not fit a cell
/// (each scenario's verdict evidence and injections) goes on lines under the table.
/// </summary>
internal sealed class LabTable(Experiment experiment, SeedFigures seeds)
{
    /// <summary>A column: its header, its cell per scenario (null when it has no value), and its rank (0 = kept first).</summary>
    private sealed record Column(string Header, int Rank, Func<ScenarioResult, string?> Cell, bool Left = false);

    // Left to right as shown; Rank says which go first when the terminal is narrow.
    private IReadOnlyList<Column> AllColumns() =>
    [
        new("scenario", 0, r => Cells.Escape(r.Scenario.Label), Left: true),
        new("reqs", 12, r => Cells.Count(r.Load?.Summary.Requests)),
        new("failed", 5, r => Cells.Count(r.Load?.Summary.Failed)),
        new("mean", 1, r => Cells.Ms(r.Load?.Summary.LatencyMs.Mean)),
        new("p50", 14, r => Cells.Ms(r.Load?.Summary.LatencyMs.P50)),
        new("p99", 2, r => Cells.Ms(r.Load?.Summary.LatencyMs.P99)),
        new("max", 7, r => Cells.Ms(r.Load?.Summary.LatencyMs.Max)),
        new("waited mean", 6, r => Optional(Split(r)?.WaitedMean)),
        new("waited p99", 10, r => Optional(Split(r)?.WaitedP99)),
        new("req/s", 8, r => Cells.Rate(r.Load?.Summary.ThroughputPerSecond)),
        new("threads", 9, Cells.Threads),
        new("verdict", 4, Cells.Verdict),
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
                ? $"{Cells.Verdict(r)} — {Cells.Escape(t.Evidence)}; injections: {Cells.Escape(Cells.Injections(r))}"
                : $"{Cells.Verdict(r)} — the pool was not watched";
            lines.Add(Cells.Hanging("  •", $"[bold]{Cells.Escape(r.Scenario.Label)}[/]: {text}"));
        }
        return new Rows(lines);
    }

    /// <summary>The columns that fit <paramref name="width"/>, in display order; columns with no value in any row are left out.</summary>
    internal IReadOnlyList<string> ChooseColumns(int width) => [.. Choose(width).Select(c => c.Column.Header)];

    private List<(Column Column, string?[] Cells)> Choose(int width)
    {
        var all = AllColumns()
            .Select(c => (Column: c, Cells: _done.Select(c.Cell).ToArray()))
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
        for (var row = 0; row < _done.Count; row++)
        {
            table.AddRow([.. columns.Select(c => c.Cells[row] ?? "–")]);
        }
        if (experiment.Seeds.Count > 0)
        {
            table.Caption("[grey]seed: as published in " + Cells.Escape(string.Join(", ", experiment.Seeds)) + " (a range's middle where only a range was given)[/]");
        }
        return table;
    }

    private string? Seed(ScenarioResult r, string field, Func<double?, string> format) =>
        seeds.FigureOrMidRange(experiment.Name, r.Scenario.Id, field) is double v ? format(v) : null;

    private static string? Optional(double? ms) => ms is null ? null : Cells.Ms(ms);

    // Present when the target stamped Server-Timing: handler (tplab's target always does).
    private static (double WaitedMean, double WaitedP99)? Split(ScenarioResult r) =>
        r.Load?.Summary.HandlerTiming is { } t ? (t.WaitedForThreadMs.Mean, t.WaitedForThreadMs.P99) : null;
}
