using System.Globalization;
using Spectre.Console;
using Tplab.Lab.Findings;
using Tplab.Watch.Verdicts;
using Tplab.Reports.Terminal;

namespace Tplab.Lab.Terminal;

/// <summary>
/// The findings of a plan from <c>tplab scan --plan</c> in the terminal: per finding its state, the static finding
/// (method, call, file and line) and beside it what the run saw (the culprit diagnose named, threads held, latency, the
/// pool's verdict), or why it was not seen or not reached.
/// </summary>
internal static class FindingLines
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;

    public static void Write(IAnsiConsole console, IReadOnlyList<FindingResult> findings)
    {
        if (findings.Count == 0)
        {
            return;
        }
        console.WriteLine();
        console.MarkupLine($"  [bold]Findings from the scan[/]: {Count(findings, FindingState.Confirmed)} confirmed, {Count(findings, FindingState.NotSeen)} not seen under that load, {Count(findings, FindingState.NotReached)} not reached, {Count(findings, FindingState.NotRun)} not run");
        foreach (var f in findings)
        {
            var c = f.Check;
            var where = f.Watched ? $"{c.Root} (watched)" : c.Root;
            console.Write(Cells.Hanging($"  {Mark(f.State)}", $"[bold]{Cells.Escape(where)}[/] — {Cells.Escape($"{c.Rule}, {c.Severity}")}"));
            console.Write(Cells.Hanging("      static: ", Cells.Escape($"{c.BlockingCall} in {c.UserMethod}{(c.At is { } at ? $" ({at})" : "")}")));
            console.Write(Cells.Hanging("      run:    ", Cells.Escape(Runtime(f))));
        }
    }

    /// <summary>What the run saw, in one line: the culprit and its figures, or the reason.</summary>
    public static string Runtime(FindingResult f)
    {
        ArgumentNullException.ThrowIfNull(f);
        if (f.State != FindingState.Confirmed || f.Culprit is not { } k)
        {
            return f.Reason;
        }
        var parts = new List<string> { $"{k.BlockingCall} in {k.UserFrame}, {k.Threads.ToString("0.#", C)} pool threads held" };
        if (f.MeanMs is double mean)
        {
            parts.Add($"mean {Cells.Ms(mean)}, p99 {Cells.Ms(f.P99Ms)}");
        }
        if (f.Pool is { } pool)
        {
            parts.Add($"pool {pool.ToWord()}");
        }
        if (f.Watched && f.Scenario is { } s)
        {
            parts.Add($"under {s}'s load");
        }
        return string.Join("; ", parts);
    }

    private static int Count(IReadOnlyList<FindingResult> findings, FindingState state) => findings.Count(f => f.State == state);

    private static string Mark(FindingState state) => state switch
    {
        FindingState.Confirmed => "[red]✓ confirmed  [/]",
        FindingState.NotSeen => "[yellow]? not seen   [/]",
        FindingState.NotReached => "[yellow]✗ not reached[/]",
        _ => "[grey]– not run    [/]",
    };
}
