using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using Tplab.Blocking;
using Tplab.Common;
using Tplab.Scan.Rules;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Output;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Fix.Rewrites;
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
    private const string SiteMark = "tplab-fix-site";

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
        var (annotated, sites) = await AnnotateAsync(original, root, targets, outcomes, cancellationToken).ConfigureAwait(false);
        var rootKeys = scan.Findings.Select(f => SymbolNames.Key(f.Root.Node.Symbol)).ToHashSet(StringComparer.Ordinal);
        var naming = new FixNaming(options.Rename, await FixNaming.ConventionAsync(original, cancellationToken).ConfigureAwait(false), rootKeys, root);
        var check = new BuildCheck(annotated, root, options.Analyzers);
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
                (outcome, next) = await FixOneAsync(current, check, naming, target, sites[target.Id], options, cancellationToken).ConfigureAwait(false);
            }
            // A shape the rewrite does not handle (Roslyn's editor refuses a replacement): this finding only, said as such.
            catch (Exception e) when (e is InvalidOperationException or ArgumentException or InvalidCastException)
            {
                (outcome, next) = (Outcome(target, FixStatus.Refused, $"tplab cannot rewrite the code around it ({e.Message}); rewrite it by hand", [], [], [], []), current);
            }
            outcomes[target.Id] = outcome;
            foreach (var other in outcome.AlsoFixed.Select(id => targets.First(t => t.Id == id)).Where(t => !outcomes.ContainsKey(t.Id)))
            {
                outcomes[other.Id] = Outcome(other, outcome.Status, outcome.Reason, [$"the lock became a SemaphoreSlim(1, 1) in the fix of {target.Id}", .. outcome.Changes], outcome.Touched, outcome.Boundaries, outcome.Notes);
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

    private static async Task<(FixOutcome, Solution)> FixOneAsync(Solution current, BuildCheck check, FixNaming naming, FixTarget target, (DocumentId Document, SyntaxAnnotation Mark) site, FixOptions options, CancellationToken cancellationToken)
    {
        FixOutcome Refused(string reason) => Outcome(target, FixStatus.Refused, reason, [], [], [], []);
        var document = current.GetDocument(site.Document)!;
        var syntaxRoot = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (syntaxRoot!.GetAnnotatedNodes(site.Mark).FirstOrDefault() is not { } node)
        {
            return (Refused("an earlier fix in this run rewrote the code around it: run tplab fix again"), current);
        }
        if (await check.ErrorBeforeAsync(document.Project.Id, cancellationToken).ConfigureAwait(false) is { } before)
        {
            return (Refused($"the project {document.Project.Name} does not compile before the fix ({before}): fix the build first"), current);
        }
        var model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
        var changes = new ChangeSet();
        var rewrite = SiteRewrites.For(target.First.Call);
        var (edit, refusal) = SiteRewrites.Rewrite(model, node, target.First.Call, changes.ConfigureAwait(node.SyntaxTree));
        if (refusal is not null)
        {
            return (Refused(refusal), current);
        }
        var propagation = new AsyncPropagation(current, changes, naming, options.MaxMethods, cancellationToken, options.AddCancellation);
        try
        {
            if (await rewrite.PropagateAsync(propagation, node, target.First.Call).ConfigureAwait(false) is { } why)
            {
                return (Refused(why), current);
            }
        }
        catch (FixTooWideException e)
        {
            return (Refused(e.Message), current);
        }
        // --add-cancellation: the token in scope, or the one the method around the site gained; the call takes it where an overload does.
        var cancellationNote = default(string);
        if (edit is not null && propagation.Token(model, node) is { } token
            && SiteRewrites.Rewrite(model, node, target.First.Call, changes.ConfigureAwait(node.SyntaxTree), token).Edit is { } withToken && withToken.Description != edit.Description)
        {
            edit = withToken;
            cancellationNote = CancellationNote.Say(node, token, edit.Description[(edit.Description.IndexOf('→', StringComparison.Ordinal) + 1)..].Split(" (with", 2)[0].Trim());
        }
        // The exception an await throws is the inner one: a catch up the chain that reads the aggregate keeps it, or the finding is refused.
        if (edit is not null && ExceptionShape.Changes(model, node, target.First.Call, cancellationToken) && ExceptionShape.FirstObserver(propagation.Points, propagation.Where) is { } observer)
        {
            edit = ExceptionShape.KeepAggregate(node, changes.ConfigureAwait(node.SyntaxTree), observer);
            if (edit is null)
            {
                return (Refused(ExceptionShape.Refusal(target.First.Call, observer)), current);
            }
        }
        if (edit is not null)
        {
            changes.Replace(node, edit.Replace);
            foreach (var ns in edit.Usings)
            {
                changes.Using(node.SyntaxTree, ns);
            }
        }
        var next = await changes.ApplyAsync(current, cancellationToken).ConfigureAwait(false);
        var (error, warnings) = await check.CheckAsync(next, current, cancellationToken).ConfigureAwait(false);
        if (error is not null)
        {
            return (Refused($"the rewrite would not compile ({error}); nothing was changed for it"), current);
        }
        var touched = new List<TouchedFile>();
        foreach (var id in next.GetChanges(current).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()))
        {
            var a = (await current.GetDocument(id)!.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            var b = (await next.GetDocument(id)!.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            var rel = naming.Relative(current.GetDocument(id)!.FilePath);
            if (a != b && touched.All(t => t.File != rel))
            {
                touched.Add(new TouchedFile(rel, UnifiedDiff.ChangedLines(a, b)));
            }
        }
        var onChain = propagation.Boundaries.Where(b => target.Findings.Any(f => f.Chain.Any(h => h.Method == b.UserMethod))).ToList();
        // Every path from a root still waits at a boundary: the wait only moved, so the change is not worth making.
        if (onChain.Count > 0 && target.Findings.All(f => onChain.Any(b => f.Chain.Any(h => h.Method == b.UserMethod))))
        {
            return (Refused($"every path to it passes a caller that cannot be async, so the wait would only move there: {string.Join("; ", onChain.Select(b => b.ToString()))}"), current);
        }
        var methods = changes.Containers.Count;
        var description = new List<string>();
        if (edit is not null)
        {
            description.Add(edit.Description);
        }
        description.AddRange(propagation.Reshaped);
        if (methods > 0)
        {
            description.Add(string.Create(CultureInfo.InvariantCulture, $"{methods} method(s) or lambda(s) made async"));
            var renamed = changes.Containers.Values.Select(c => c.NewName).OfType<string>().Distinct(StringComparer.Ordinal).ToList();
            if (renamed.Count > 0)
            {
                description.Add($"renamed with the Async suffix ({(options.Rename == RenameMode.Async ? "--rename async" : "the solution's convention")}), every reference updated: {string.Join(", ", renamed)}");
            }
        }
        var tokened = changes.Containers.Where(c => c.Value.AddToken is not null && c.Key is MethodDeclarationSyntax)
            .Select(c => c.Value.NewName ?? ((MethodDeclarationSyntax)c.Key).Identifier.ValueText).Distinct(StringComparer.Ordinal).ToList();
        if (tokened.Count > 0)
        {
            description.Add($"--add-cancellation: a CancellationToken parameter added to {string.Join(", ", tokened)}, passed where they are called with a token in scope");
        }
        var notes = (cancellationNote is null ? propagation.Notes : [cancellationNote, .. propagation.Notes]).Concat(warnings.Select(w => "new warning: " + w))
            .Concat(propagation.Boundaries.Except(onChain).Select(b => $"another caller waits on the task: {b}")).ToList();
        var status = onChain.Count > 0 ? FixStatus.PartlyFixed : FixStatus.Fixed;
        // Other selected findings on a lock this fix turned into a semaphore: that lock is gone with this change.
        var alsoFixed = propagation.ConvertedLocks.SelectMany(c => c.GetAnnotations(SiteMark)).Select(a => a.Data!).Where(id => id != target.Id).ToList();
        return (Outcome(target, status, onChain.Count > 0 ? "async up to a caller that cannot be async; it waits on the task there" : null,
            description, touched, [.. onChain.Select(b => b.ToString())], notes) with { AlsoFixed = alsoFixed }, next);
    }

    private static FixOutcome Outcome(FixTarget t, FixStatus status, string? reason, IReadOnlyList<string> changes, IReadOnlyList<TouchedFile> touched, IReadOnlyList<string> boundaries, IReadOnlyList<string> notes) =>
        new(t.Id, t.First.Call.Name, t.First.UserFrame, t.Site.File, t.Site.Line, t.Roots, status, reason, changes, touched, boundaries, notes);

    // Marks every selected site in the solution once, so each fix finds its node after earlier fixes moved lines.
    private static async Task<(Solution, Dictionary<string, (DocumentId, SyntaxAnnotation)>)> AnnotateAsync(
        Solution solution, string root, IReadOnlyList<FixTarget> targets, Dictionary<string, FixOutcome> outcomes, CancellationToken cancellationToken)
    {
        var sites = new Dictionary<string, (DocumentId, SyntaxAnnotation)>(StringComparer.Ordinal);
        var documents = solution.Projects.SelectMany(p => p.Documents).Where(d => d.FilePath is not null)
            .GroupBy(d => d.FilePath!, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        foreach (var byFile in targets.GroupBy(t => t.Site.File, StringComparer.Ordinal))
        {
            var path = Path.GetFullPath(Path.Combine(root, byFile.Key));
            if (!documents.TryGetValue(path, out var document))
            {
                foreach (var t in byFile)
                {
                    outcomes[t.Id] = Outcome(t, FixStatus.Refused, byFile.Key.Contains("/obj/", StringComparison.Ordinal) || byFile.Key.EndsWith(".g.cs", StringComparison.Ordinal)
                        ? $"it is in code a generator writes ({Path.GetFileName(byFile.Key)}: a Razor view or component, a source generator's output): change its source by hand"
                        : $"{byFile.Key} is not a source file of the loaded projects", [], [], [], []);
                }
                continue;
            }
            var syntax = (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))!;
            var model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
            var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
            var marks = new Dictionary<SyntaxNode, SyntaxAnnotation>();
            foreach (var t in byFile)
            {
                if (SiteRewrites.For(t.First.Call).RefusalUpfront(BlockingCallCatalogue.RewriteFor(t.First.Call)) is { } upfront)
                {
                    outcomes[t.Id] = Outcome(t, FixStatus.Refused, upfront, [], [], [], []);
                    continue;
                }
                var node = Locate(model, syntax, text, t.Site, t.First.Call);
                if (node is null || marks.ContainsKey(node))
                {
                    outcomes[t.Id] = Outcome(t, FixStatus.Refused, t.First.Call.Frame.MethodName == "GetEnumerator"
                        ? "a foreach over a database query: iterate with await foreach (… in query.AsAsyncEnumerable()) or load it with await query.ToListAsync() first"
                        : "the blocking call is not an expression tplab can rewrite at this place", [], [], [], []);
                    continue;
                }
                if (InactiveBranches.Reason(node, t.First.Call) is { } inactive)
                {
                    outcomes[t.Id] = Outcome(t, FixStatus.Refused, inactive, [], [], [], []);
                    continue;
                }
                var mark = new SyntaxAnnotation(SiteMark, t.Id);
                marks[node] = mark;
                sites[t.Id] = (document.Id, mark);
            }
            solution = solution.WithDocumentSyntaxRoot(document.Id, syntax.ReplaceNodes(marks.Keys, (o, n) => n.WithAdditionalAnnotations(marks[o])));
        }
        return (solution, sites);
    }

    // The node of the finding's call at the site's line and column, as its rewrite finds it.
    private static SyntaxNode? Locate(SemanticModel model, SyntaxNode root, SourceText text, ChainHop site, BlockingCall call)
    {
        if (site.Line < 1 || site.Line > text.Lines.Count)
        {
            return null;
        }
        return SiteRewrites.For(call).Locate(model, root, text.Lines[site.Line - 1].Start + site.Column - 1, call);
    }
}
