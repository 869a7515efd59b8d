using System.Globalization;
using System.Text;
using Tplab.Tests.Scan.Truth;

namespace Tplab.Tests.Scan.Judge;

/// <summary>One tool's scores on every app, or why it has none (not available, no SARIF written).</summary>
internal sealed record ToolRun(string Tool, string Rules, IReadOnlyList<AppScore> Scores, string? Unavailable = null)
{
    public int Blocking => Scores.Sum(s => s.Blocking);

    public int Found => Scores.Sum(s => s.Found);

    public int OnChain => Scores.Sum(s => s.OnChain);

    public int False => Scores.Sum(s => s.False);
}

/// <summary>The judge's tables in Markdown: totals per tool, per app, per root, and every false line.</summary>
internal static class ScanReport
{
    public static string Markdown(IReadOnlyList<ToolRun> runs, IReadOnlyList<TruthApp> apps)
    {
        var md = new StringBuilder();
        var scored = runs.Where(r => r.Unavailable is null).ToList();
        md.AppendLine("| tool | rules counted | blocking roots found | recall | flagged lines on a true chain | false | precision | must-not-flag roots flagged | full chain shown |");
        md.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var run in runs)
        {
            if (run.Unavailable is not null)
            {
                md.AppendLine(Inv($"| {run.Tool} | {run.Rules} | {run.Unavailable} | | | | | | |"));
                continue;
            }
            var clean = run.Scores.Sum(s => s.Roots.Count(r => r.Root.Verdict == Verdict.Clean && r.Root.Traps.Count > 0));
            md.AppendLine(Inv($"| {run.Tool} | {run.Rules} | {run.Found}/{run.Blocking} | {Percent(run.Found, run.Blocking)} | {run.OnChain} | {run.False} | {Percent(run.OnChain, run.OnChain + run.False)} | {run.Scores.Sum(s => s.CleanRootsFlagged)}/{clean} | {run.Scores.Sum(s => s.ChainsShown)} |"));
        }
        foreach (var run in scored.Where(r => r.Tool.StartsWith("tplab", StringComparison.OrdinalIgnoreCase)))
        {
            // Only tplab grades its findings (error, warning, note); the peers' levels are what the .editorconfig set.
            var found = run.Scores.SelectMany(s => s.Roots).Where(r => r.Root.Verdict == Verdict.Blocking && r.Flagged).ToList();
            md.AppendLine();
            md.AppendLine(Inv($"{run.Tool}: the severity of the finding that found a root is the truth's on {found.Count(r => r.Level == r.Root.Severity)} of {found.Count} found roots."));
        }
        md.AppendLine();
        md.AppendLine("Per app (blocking roots found / blocking roots; precision over the flagged lines):");
        md.AppendLine();
        md.AppendLine("| tool | " + string.Join(" | ", apps.Select(a => a.Name)) + " |");
        md.AppendLine("|---|" + string.Concat(apps.Select(_ => "---:|")));
        foreach (var run in scored)
        {
            var cells = apps.Select(app => run.Scores.FirstOrDefault(s => s.App.Name == app.Name) is { } s
                ? Inv($"{s.Found}/{s.Blocking}, {Percent(s.OnChain, s.OnChain + s.False)}")
                : "not run");
            md.AppendLine(Inv($"| {run.Tool} | {string.Join(" | ", cells)} |"));
        }
        md.AppendLine();
        AppendRoots(md, scored, apps);
        AppendFalse(md, scored);
        return md.ToString();
    }

    private static void AppendRoots(StringBuilder md, IReadOnlyList<ToolRun> runs, IReadOnlyList<TruthApp> apps)
    {
        md.AppendLine("Per root (a blocking root: the rules that flagged a line of its true chain; a must-not-flag root: the rules that flagged one of its traps):");
        md.AppendLine();
        md.AppendLine("| app | root | expected | " + string.Join(" | ", runs.Select(r => r.Tool)) + " |");
        md.AppendLine("|---|---|---|" + string.Concat(runs.Select(_ => "---|")));
        foreach (var app in apps)
        {
            foreach (var root in app.Roots.Where(r => r.Verdict != Verdict.Clean || r.Traps.Count > 0))
            {
                var expected = root.Verdict switch
                {
                    Verdict.Blocking => $"{root.Severity}: {root.BlockingCall} in {Short(root.UserMethod)}",
                    Verdict.Waste => $"note: {root.BlockingCall}",
                    _ => "must not flag",
                };
                var cells = runs.Select(run => Cell(run, app, root));
                md.AppendLine(Inv($"| {app.Name} | `{root.Case}` ({root.Root}) | {expected} | {string.Join(" | ", cells)} |"));
            }
        }
        md.AppendLine();
    }

    private static string Cell(ToolRun run, TruthApp app, TruthRoot root)
    {
        var outcome = run.Scores.FirstOrDefault(s => s.App.Name == app.Name)?.Roots.FirstOrDefault(r => r.Root.Case == root.Case);
        if (outcome is null)
        {
            return "not run";
        }
        var rules = string.Join(", ", outcome.Rules);
        // tplab grades its findings: say where its level differs from the truth's severity.
        var level = run.Tool.StartsWith("tplab", StringComparison.OrdinalIgnoreCase) && outcome.Level != root.Severity ? $"; {outcome.Level}, not {root.Severity}" : "";
        return (root.Verdict, outcome.Flagged) switch
        {
            (Verdict.Blocking, true) => $"found ({rules}{(outcome.ChainShown ? ", chain" : "")}{level})",
            (Verdict.Blocking, false) => "missed",
            (Verdict.Waste, true) => $"noted ({rules})",
            (Verdict.Waste, false) => "-",
            (_, true) => $"FLAGGED ({rules})",
            _ => "ok",
        };
    }

    private static void AppendFalse(StringBuilder md, IReadOnlyList<ToolRun> runs)
    {
        md.AppendLine("False lines (flagged, on no true chain):");
        md.AppendLine();
        foreach (var run in runs)
        {
            var lines = run.Scores.SelectMany(s => s.Spots.Where(p => p.Kind == SpotKind.False)).ToList();
            md.Append(Inv($"- {run.Tool}: {lines.Count}"));
            md.AppendLine(lines.Count == 0 ? "" : ": " + string.Join("; ", lines.Select(l => $"`{l}`{(l.Trap is null ? "" : $" (trap of {l.Trap})")}")));
        }
    }

    private static string Short(string? method) => method is null ? "" : string.Join('.', method.Split('.').TakeLast(2));

    private static string Percent(int part, int whole) => whole == 0 ? "n/a" : Inv($"{100.0 * part / whole:0}%");

    private static string Inv(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
