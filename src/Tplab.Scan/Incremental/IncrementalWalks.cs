using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Incremental;

/// <summary>
/// A cached scan's walks and result, and what changed since: the sources edited (full paths), and whether every edit
/// was inside bodies (what the projects declare is as it was: <see cref="WarmLoad"/>).
/// </summary>
internal sealed record PriorScan(CachedWalks Walks, CachedResult Result, IReadOnlyList<string> Edited, bool BodiesOnly);

/// <summary>
/// Which entry points an edit inside bodies can affect (docs/scan.md "The cache"): when the entry points, DI's
/// registrations, the types the code creates and the locks held around slow work are what the cached scan found, a walk
/// changes only if it depends on an edited file (<see cref="WalkRecord.Depends"/>): it followed or could read a method
/// there, or read the callers of a method that the file calls (now or before), or a fact of its project. Every other
/// entry point's walk, and every finding none of the walked ones reaches, is the cached scan's.
/// </summary>
internal static class IncrementalWalks
{
    /// <param name="revived">The entry points are the cached ones found again (<see cref="CachedRoots.Revive"/>): the same, though those in an edited file moved.</param>
    public static (PriorWalks? Prior, string? FullBecause) Of(PriorScan scan, EditedTokens edits, RootSet set, SourceIndex index, IReadOnlyList<string> signatures, string global,
        bool revived)
    {
        var cached = scan.Walks;
        if (!scan.BodiesOnly)
        {
            return (null, "an edited file declares something else");
        }
        if (!revived && !cached.Roots.SequenceEqual(signatures, StringComparer.Ordinal))
        {
            return (null, "the entry points changed");
        }
        if (cached.Global != global)
        {
            return (null, "DI's registrations, the types the code creates or the locks held around slow work changed");
        }
        var records = cached.Records();
        var affected = Enumerable.Range(0, records.Count).Where(i => records[i].Depends.Any(edits.Dirty)).ToHashSet();
        var roots = set.Roots;
        var (findings, suppressed) = scan.Result.FindingsWith([.. cached.EntryRoots.Select(i => roots[i])]);
        var keyed = findings.Select(f => (Finding: f, Suppressed: false)).Concat(suppressed.Select(f => (Finding: f, Suppressed: true)))
            .Zip(cached.FindingSites, (f, site) => (f.Finding, f.Suppressed, cached.Keys[site])).ToList();
        var views = cached.Views.ToDictionary(v => (v.Root, cached.Keys[v.Site]), v => new RootView(roots[v.Root], v.Severity, v.Chain, v.Context, v.Reasons, v.Advice, v.Suppression)
        {
            Dispatch = v.Dispatch,
            RunsOnce = v.RunsOnce,
        });
        var methods = edits.Trees.SelectMany(t => t.GetRoot().DescendantNodesAndSelf()
                .Where(n => n is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or LocalFunctionStatementSyntax or AnonymousFunctionExpressionSyntax or ArrowExpressionClauseSyntax or CompilationUnitSyntax))
            .Select(index.NodeFor).OfType<CodeNode>().Select(n => n.FullName).ToHashSet(StringComparer.Ordinal);
        return (new PriorWalks(roots, records, affected, keyed, views, methods), null);
    }
}
