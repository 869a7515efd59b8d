using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Rewrites;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Scan.Fix;

/// <summary>
/// Finds each selected finding's node in the solution and marks it once, so each fix finds its node after earlier
/// fixes moved lines; a site that cannot be found, or that its rewrite refuses before looking, gets its refusal here.
/// </summary>
internal static class FixSites
{
    private const string SiteMark = "tplab-fix-site";

    /// <summary>The ids of the selected findings marked inside <paramref name="node"/> (a lock another fix converted).</summary>
    public static IEnumerable<string> IdsIn(SyntaxNode node) => node.GetAnnotations(SiteMark).Select(a => a.Data!);

    public static async Task<(Solution, Dictionary<string, (DocumentId, SyntaxAnnotation)>)> MarkAsync(
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
                    outcomes[t.Id] = FixOutcomes.Refused(t, FixReasons.NotSource.Say(byFile.Key.Contains("/obj/", StringComparison.Ordinal) || byFile.Key.EndsWith(".g.cs", StringComparison.Ordinal)
                        ? $"it is in code a generator writes ({Path.GetFileName(byFile.Key)}: a Razor view or component, a source generator's output): change its source by hand"
                        : $"{byFile.Key} is not a source file of the loaded projects"));
                }
                continue;
            }
            var syntax = (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))!;
            var model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
            var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
            var marks = new Dictionary<SyntaxNode, SyntaxAnnotation>();
            foreach (var t in byFile)
            {
                if (Refusal(model, syntax, text, t, marks) is { } refusal)
                {
                    outcomes[t.Id] = FixOutcomes.Refused(t, refusal);
                }
            }
            foreach (var mark in marks.Values)
            {
                sites[mark.Data!] = (document.Id, mark);
            }
            solution = solution.WithDocumentSyntaxRoot(document.Id, syntax.ReplaceNodes(marks.Keys, (o, n) => n.WithAdditionalAnnotations(marks[o])));
        }
        return (solution, sites);
    }

    // Why the target cannot be marked (its refusal), else null with its node marked in marks.
    private static string? Refusal(SemanticModel model, SyntaxNode syntax, SourceText text, FixTarget t, Dictionary<SyntaxNode, SyntaxAnnotation> marks)
    {
        if (SiteRewrites.For(t.First.Call).RefusalUpfront(BlockingCallCatalogue.RewriteFor(t.First.Call)) is { } upfront)
        {
            return upfront;
        }
        var node = Locate(model, syntax, text, t.Site, t.First.Call);
        if (node is null || marks.ContainsKey(node))
        {
            return FixReasons.NotAnExpression.Say(t.First.Call.Frame.MethodName == "GetEnumerator"
                ? "a foreach over a database query: iterate with await foreach (… in query.AsAsyncEnumerable()) or load it with await query.ToListAsync() first"
                : "the blocking call is not an expression tplab can rewrite at this place");
        }
        if (InactiveBranches.Reason(node, t.First.Call) is { } inactive)
        {
            return FixReasons.InactiveBranch.Say(inactive);
        }
        marks[node] = new SyntaxAnnotation(SiteMark, t.Id);
        return null;
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
