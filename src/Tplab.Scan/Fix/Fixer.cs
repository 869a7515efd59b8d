using System.Globalization;
using Microsoft.CodeAnalysis;
using Tplab.Common;
using Tplab.Scan.Rules;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Scan.Fix;

/// <summary>
/// <c>tplab fix</c>'s engine: scans the solution as <c>tplab scan</c> does, selects findings, and for each blocking
/// site in turn rewrites the call into its awaited form, carries async up through every caller, compiles every
/// affected project and keeps the rewrite only when it adds no error. Nothing is written here: the result holds
/// each file's text before and after.
/// </summary>
public static class Fixer
{
    public static async Task<FixResult> FixAsync(FixOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(progress);
        options = options.Validated();
        var input = ScanInput.Resolve(options.Path);
        // The report is read before anything loads: another solution's report fails at once.
        var fromIds = options.From is { } from ? FixSelection.ReadReport(from, input.DisplayName, input.Root) : null;
        var scanOptions = new ScanOptions { Path = options.Path, Restore = options.Restore, MaxDepth = options.MaxDepth, ConfigFile = options.ConfigFile };
        // Loaded as scan loads (one path: the same config, so the same findings and ids as the report it may come from).
        using var load = await Scanner.LoadAsync(input, scanOptions, "tplab fix", [("--output", options.Output), ("--plan", options.Plan)],
            [("the --from report read", options.From)], progress, cancellationToken).ConfigureAwait(false);
        var code = load.Code;
        if (code.Projects.Count == 0)
        {
            throw TplabException.Usage($"no project of {input.DisplayName} could be loaded");
        }
        var scan = Scanner.Analyse(code, scanOptions, load.Config, new Baseline(), progress, TimeSpan.Zero, cancellationToken);
        if (scan.MaxDepthLine is { } depth)
        {
            progress.Line("tplab fix: " + depth);
        }
        var targets = FixSelection.Select(FixSelection.Targets(scan.Findings), options, input.DisplayName, fromIds);
        return await FixTargetsAsync(code, scan, targets, options, progress, cancellationToken).ConfigureAwait(false);
    }

    internal static async Task<FixResult> FixTargetsAsync(LoadedCode code, ScanResult scan, IReadOnlyList<FixTarget> targets, FixOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        var root = code.Input.Root;
        var original = code.Projects[0].Project.Solution;
        var outcomes = new Dictionary<string, FixOutcome>(StringComparer.Ordinal);
        var (annotated, sites) = await FixSites.MarkAsync(original, root, targets, outcomes, cancellationToken).ConfigureAwait(false);
        var rootKeys = scan.Findings.Select(f => SymbolNames.Key(f.Root.Node.Symbol)).ToHashSet(StringComparer.Ordinal);
        var naming = new FixNaming(options.Rename, await FixNaming.ConventionAsync(original, cancellationToken).ConfigureAwait(false), rootKeys, root);
        var check = new BuildCheck(annotated, root, options.Analyzers);
        var step = new FixStep(check, naming, options, cancellationToken);
        var current = annotated;
        var done = 0;
        foreach (var target in targets.Where(t => !outcomes.ContainsKey(t.Id)))
        {
            cancellationToken.ThrowIfCancellationRequested();
            progress.Status(string.Create(CultureInfo.InvariantCulture, $"fixing {++done}/{targets.Count}: {target.First.Call.Name} in {target.First.Site.Display}"));
            FixOutcome outcome;
            Solution next;
            try
            {
                (outcome, next) = await step.RunAsync(current, target, sites[target.Id]).ConfigureAwait(false);
            }
            // A shape the rewrite does not handle: Roslyn's editor refuses a replacement (a node put where its slot takes
            // another syntax type throws InvalidCastException inside the editor): this finding only, said as such.
            catch (Exception e) when (e is InvalidOperationException or ArgumentException or InvalidCastException)
            {
                (outcome, next) = (FixOutcomes.Refused(target, FixReasons.EditorRefused.Say($"tplab cannot rewrite the code around it ({e.Message}); rewrite it by hand")), current);
            }
            outcomes[target.Id] = outcome;
            foreach (var other in outcome.AlsoFixed.Select(id => targets.First(t => t.Id == id)).Where(t => !outcomes.ContainsKey(t.Id)))
            {
                outcomes[other.Id] = FixOutcomes.AlsoFixed(other, outcome);
            }
            current = next;
        }
        progress.Status("");
        var files = new List<FileChange>();
        foreach (var id in current.GetChanges(original).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()))
        {
            var before = original.GetDocument(id)!;
            var after = current.GetDocument(id)!;
            if (before.FilePath is null || files.Any(f => f.Path == before.FilePath))
            {
                continue;
            }
            var beforeText = (await before.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            var afterText = (await after.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            if (beforeText != afterText)
            {
                files.Add(new FileChange(before.FilePath, naming.Relative(before.FilePath), beforeText, afterText));
            }
        }
        return new FixResult(code.Input.DisplayName, root, [.. targets.Select(t => outcomes[t.Id])], [.. files.OrderBy(f => f.Relative, StringComparer.Ordinal)])
        {
            Scan = scan,
            Targets = targets,
        };
    }
}
