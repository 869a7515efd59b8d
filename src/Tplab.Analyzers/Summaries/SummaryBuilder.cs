using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Analyzers.Summaries;

/// <summary>
/// What a project's callers need to know: each of its public and internal methods that reaches a blocking call, walked
/// by scan's graph and rules as if the method were an entry point (its callers are in other projects), through the
/// summaries of the projects it references in turn.
/// </summary>
internal static class SummaryBuilder
{
    public static IReadOnlyList<SummaryLine> Of(Compilation compilation, CancellationToken cancellationToken)
    {
        var referenced = ReferencedSummaries.Of(compilation, cancellationToken);
        var index = new SourceIndex([compilation], CompilationAnalysis.CommonFolder(compilation.SyntaxTrees.Select(t => t.FilePath)));
        var api = index.Types.Where(Visible)
            .SelectMany(t => t.GetMembers().OfType<IMethodSymbol>())
            .Where(m => m.MethodKind is MethodKind.Ordinary or MethodKind.PropertyGet or MethodKind.PropertySet && !m.IsAbstract && Visible(m))
            .Select(index.NodeFor).OfType<CodeNode>()
            .Select(n => new EntryPoint(n, CodePlace.Unknown, null))
            .ToList();
        if (api.Count == 0)
        {
            return [];
        }
        var graph = new CallGraph(index, new BlockingRules(referenced.Entries, index.Callers));
        var roots = RootFinder.Find(index, cancellationToken) with { Roots = api };
        var locks = new LockAnalysis(graph, CompilationAnalysis.MaxDepth, cancellationToken);
        var builder = new FindingBuilder(graph, locks, roots, CompilationAnalysis.MaxDepth);
        var (findings, _) = builder.Build(SilentProgress.Instance, cancellationToken);

        // The methods that reach a site that holds a thread; each is walked once more on its own for its own chain to
        // its worst site, then its nearest.
        var blocking = findings.Where(f => f.Severity != Severity.Note).SelectMany(f => f.Roots).Select(r => r.Root).Distinct().ToList();
        var lines = new List<SummaryLine>();
        foreach (var entry in blocking)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var finding = builder.For(entry).Where(f => f.Severity != Severity.Note && f.Suppression is null)
                .OrderByDescending(f => f.Severity).ThenBy(f => f.Chain.Count).FirstOrDefault();
            if (finding is null)
            {
                continue;
            }
            var frame = SymbolNames.Frame(SymbolNames.Definition(entry.Node.Symbol));
            var chain = finding.Chain.Select(h => h.Display).Append(finding.Call.Name).ToList();
            var call = referenced.Of(finding.Call.Frame.OpenTypeName, finding.Call.Frame.MethodName);
            if (call is { } through)
            {
                // A call into a referenced project's blocking method: its chain goes on, and the call at the end is its.
                chain = [.. chain.Take(chain.Count - 1), .. through.Line.Chain];
            }
            lines.Add(new SummaryLine(frame.OpenTypeName, frame.MethodName, finding.Call.Kind, call?.Line.Call ?? finding.Call.Name, chain));
        }
        // In a stable order: the generated attribute is part of a deterministic build.
        return [.. lines.OrderBy(l => l.Type, StringComparer.Ordinal).ThenBy(l => l.Method, StringComparer.Ordinal).ThenBy(l => string.Join(" ", l.Chain), StringComparer.Ordinal)];
    }

    private static bool Visible(ISymbol symbol)
    {
        for (var s = symbol; s is not null and not INamespaceSymbol; s = s.ContainingSymbol)
        {
            if (s.DeclaredAccessibility is Accessibility.Private or Accessibility.NotApplicable && s is not INamespaceSymbol)
            {
                return false;
            }
        }
        return true;
    }
}
