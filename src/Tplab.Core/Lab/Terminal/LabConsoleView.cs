using System.Globalization;
using Spectre.Console;
using Tplab.Blocking;
using Tplab.Lab.Experiments;
using Tplab.Lab.Findings;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load;
using Tplab.Watch.Verdicts;
using Tplab.Watch;
using Tplab.Reports.Terminal;

namespace Tplab.Lab.Terminal;

/// <summary>
/// The lab in a terminal: per experiment a table filled in as scenarios finish, with a progress row for the
/// running one (redrawn in place on an interactive console through a <see cref="LiveRegion"/>, printed once per
/// scenario otherwise), then the lessons beside the seed's, the notes on runtime differences, and the culprits
/// diagnose found. Every call draws at once on the caller's thread; nothing waits.
/// </summary>
public sealed class LabConsoleView(IAnsiConsole console, bool interactive) : ILabObserver
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;
    private readonly SeedFigures _seeds = SeedFigures.Load();
    private readonly Lock _gate = new();
    private LabTable? _table;
    private LiveRegion? _region;
    private (Scenario Scenario, TimeSpan At)? _lastLogged;
    private Scenario? _running;

    private static readonly TimeSpan LogEvery = TimeSpan.FromSeconds(10);

    public void LabStarted(IReadOnlyList<Experiment> experiments, string folder)
    {
        console.MarkupLine($"[bold]tplab run[/]: {experiments.Count.ToString(C)} experiment(s), {experiments.Sum(e => e.Scenarios.Count).ToString(C)} scenarios, each against a fresh target process.");
        console.MarkupLine($"Results: [blue]{Cells.Escape(folder)}[/]");
    }

    public void Noticed(string message) => console.MarkupLine($"[yellow]{Cells.Escape(message)}[/]");

    public void ExperimentSkipped(Experiment experiment, string reason) =>
        console.MarkupLine($"[yellow]{Cells.Escape(experiment.Name)} skipped:[/] {Cells.Escape(reason)}");

    public void ExperimentStarted(Experiment experiment)
    {
        console.WriteLine();
        console.Write(new Rule($"[bold]{Cells.Escape(experiment.Name)}[/]").LeftJustified());
        console.MarkupLine(Cells.Escape(experiment.Title));
        console.MarkupLine($"[grey]{Cells.Escape(experiment.Scaling)}[/]");
        if (experiment.SwitchedOff.Count > 0)
        {
            console.MarkupLine($"[grey]switched off (enabled: false), not run: {Cells.Escape(string.Join(", ", experiment.SwitchedOff.Select(s => s.Id)))}[/]");
        }
        _table = new LabTable(experiment, _seeds);
        if (interactive)
        {
            _region = new LiveRegion(console);
            Refresh();
        }
    }

    private int Width => console.Profile.Width;

    public void ScenarioStarted(Scenario scenario)
    {
        lock (_gate)
        {
            _running = scenario;
        }
        Update(scenario, $"[blue]▸ {Cells.Escape(scenario.Label)}[/] starting the target…");
    }

    public void ScenarioProgress(Scenario scenario, LoadProgress progress, ThreadPoolSample? pool)
    {
        var expected = scenario.Load.ExpectedRequests;
        var poolText = pool is null ? "" : $" · pool {pool.ThreadCount.ToString(C)} threads, queue {pool.QueueLength.ToString(C)}, {pool.Verdict.ToWord()}";
        var figures = $"{progress.Done.ToString(C)}{(expected is int e ? "/" + e.ToString(C) : "")} done · {progress.Elapsed.TotalSeconds.ToString("0", C)} s · in flight {progress.InFlight.ToString(C)} · p99 {Cells.Ms(progress.Done > 0 ? progress.P99Ms : null)}{Cells.Escape(poolText)}";
        if (interactive)
        {
            var bar = expected is int n && n > 0 ? Bar(progress.Done / (double)n) + " " : "";
            Update(scenario, $"[blue]▸ {Cells.Escape(scenario.Label)}[/] {bar}{figures}");
            return;
        }
        // In a log: the first report of each scenario, then one every 10 s, so long runs show they are alive.
        lock (_gate)
        {
            // A report that arrives after its scenario finished is stale: never print it over the result.
            if (!ReferenceEquals(_running, scenario) || (_lastLogged is { } last && last.Scenario == scenario && progress.Elapsed - last.At < LogEvery))
            {
                return;
            }
            _lastLogged = (scenario, progress.Elapsed);
        }
        console.MarkupLine($"  ▸ {Cells.Escape(scenario.Label)}: {figures}");
    }

    public void ScenarioFinished(ScenarioResult result)
    {
        lock (_gate)
        {
            _table?.Add(result);
            if (_table is not null)
            {
                _table.Running = null;
            }
            if (ReferenceEquals(_running, result.Scenario))
            {
                _running = null;
            }
        }
        if (interactive)
        {
            Refresh();
        }
        else
        {
            var s = result.Load?.Summary;
            console.Write(Cells.Hanging("  ", $"{Cells.Escape(result.Scenario.Label)}: {Cells.Count(s?.Requests)} requests, mean {Cells.Ms(s?.LatencyMs.Mean)}, max {Cells.Ms(s?.LatencyMs.Max)}, pool {ScenarioCells.Threads(result)}, {ScenarioCells.Verdict(result)}"));
        }
        if (result.Error is { } error)
        {
            var line = new Markup($"  [yellow]{Cells.Escape(result.Scenario.Label)}: {Cells.Escape(error)}[/]\n");
            if (_region is { } region)
            {
                region.Above(line);
            }
            else
            {
                console.Write(line);
            }
        }
    }

    public void ExperimentFinished(ExperimentResult result)
    {
        if (_region is { } region)
        {
            // The finished table stays where it was drawn; the rest goes below it.
            Refresh();
            region.Close();
            _region = null;
        }
        else if (_table is not null)
        {
            console.Write(_table.Render(Width));
        }
        if (_table is not null)
        {
            console.Write(_table.Details());
        }
        // The lessons as a table when it fits without wrapping a cell, else one line each.
        var labelWidth = result.Lessons.Select(l => l.Lesson.Label.Length).DefaultIfEmpty(0).Max();
        if (result.Lessons.Count > 0 && labelWidth + 24 > Width)
        {
            foreach (var l in result.Lessons)
            {
                console.Write(Cells.Hanging("  ◆", $"{Cells.Escape(l.Lesson.Label)}: {Cells.Ratio(l.Ours)} this run, {Cells.Ratio(l.Seed)} in the seed"));
            }
        }
        else if (result.Lessons.Count > 0)
        {
            var lessons = new Table().Border(TableBorder.Simple).AddColumn(new TableColumn("what it shows").NoWrap()).AddColumn(new TableColumn("this run").RightAligned()).AddColumn(new TableColumn("seed").RightAligned());
            foreach (var l in result.Lessons)
            {
                lessons.AddRow(Cells.Escape(l.Lesson.Label), Cells.Ratio(l.Ours), Cells.Ratio(l.Seed));
            }
            console.Write(lessons);
        }
        foreach (var note in result.Experiment.RuntimeNotes.Concat(result.Observations))
        {
            console.Write(Cells.Hanging("  •", Cells.Escape(note)));
        }
        foreach (var r in result.Scenarios.Where(r => r.Culprits.Count > 0))
        {
            var top = r.Culprits[0];
            console.Write(Cells.Hanging("  [red]✗[/]", $"{Cells.Escape(r.Scenario.Label)}: [bold]{Cells.Escape(top.BlockingCall)}[/] in [bold]{Cells.Escape(top.UserFrame)}[/] ({top.Threads.ToString("0.#", C)} pool threads held) — {Cells.Escape(top.Advice)}"));
        }
        // A scenario whose pool starved with no culprit named says why, so "no culprit" never reads as "no blocking".
        foreach (var r in result.Scenarios.Where(r => r.Culprits.Count == 0 && r.NoCulpritBecause is not null && r.Timeline?.InjectionsByReason.GetValueOrDefault("Starvation") > 0))
        {
            console.Write(Cells.Hanging("  [yellow]?[/]", $"{Cells.Escape(r.Scenario.Label)}: no culprit named — {Cells.Escape(r.NoCulpritBecause!)}"));
        }
        FindingLines.Write(console, FindingVerdicts.Of(result));
    }

    public void LabFinished(LabResult result)
    {
        console.WriteLine();
        foreach (var (experiment, reason) in result.Skipped)
        {
            console.MarkupLine($"[yellow]{Cells.Escape(experiment)} was skipped:[/] {Cells.Escape(reason)}");
        }
        var outcome = LabOutcome.Of(result);
        var state = result.Interrupted ? "[red]interrupted[/]: finished scenarios kept, the running one marked"
            : outcome.ExitCode == Common.ExitCodes.Ok ? "done"
            : outcome.ExitCode == Common.ExitCodes.Partial ? "[yellow]done in part[/]"
            : "[red]failed[/]: no scenario produced a result";
        console.MarkupLine($"tplab run {state}. Report: [blue]{Cells.Escape(Path.Combine(result.Folder, "report.html"))}[/]  Summary: [blue]{Cells.Escape(Path.Combine(result.Folder, "summary.json"))}[/]");
    }

    private void Update(Scenario scenario, string line)
    {
        lock (_gate)
        {
            if (!ReferenceEquals(_running, scenario))
            {
                return;
            }
            if (_table is not null)
            {
                _table.Running = line;
            }
        }
        if (interactive)
        {
            Refresh();
        }
    }

    private void Refresh()
    {
        lock (_gate)
        {
            if (_region is not null && _table is not null)
            {
                _region.Update(_table.Render(Width));
            }
        }
    }

    private static string Bar(double fraction)
    {
        const int width = 16;
        var filled = (int)Math.Round(Math.Clamp(fraction, 0, 1) * width);
        return "[green]" + new string('█', filled) + "[/][grey]" + new string('░', width - filled) + "[/]";
    }
}
