using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Findings;

/// <summary>
/// Which of its method's blocking calls of the same name a site is (0-based, in source order): the ordinal of
/// <see cref="FindingId"/>. "Its method" is the method the developer wrote, as the user frame names it: its overloads
/// and partial parts, and the lambdas and local functions inside them; "blocking calls" are the sites the scan reports
/// there (<see cref="SiteCatalogue"/>), whether or not an entry point reaches them, so the ordinal does not move when
/// routes or roots change.
/// </summary>
internal sealed class SiteOrdinals(SourceIndex index, SiteCatalogue catalogue)
{
    private readonly HashSet<SyntaxTree> _trees = [.. index.Trees];
    private readonly ConcurrentDictionary<(string Method, Compilation Project), IReadOnlyList<SiteFacts>> _byMethod = new();

    /// <summary>The project (assembly name) the site's code is compiled in: part of its <see cref="FindingId"/>.</summary>
    public string ProjectOf(SiteFacts site) => index.CompilationOf(site.In.Syntax.SyntaxTree).AssemblyName ?? "";

    public int Of(SiteFacts site)
    {
        // By project too: two projects may declare the same type (copies of one project), and each numbers its own sites.
        var sites = _byMethod.GetOrAdd((site.In.FullName, index.CompilationOf(site.In.Syntax.SyntaxTree)), _ => SitesOfMethod(site.In));
        var same = sites.Where(s => s.Call.Name == site.Call.Name).Select(s => s.Site).Distinct().ToList();
        var at = same.IndexOf(site.Site);
        return at < 0 ? 0 : at;
    }

    private List<SiteFacts> SitesOfMethod(CodeNode node)
    {
        var bodies = new HashSet<CodeNode> { node };
        if (Holder(node.Symbol) is { } method && method.ContainingType is { } type)
        {
            foreach (var member in type.GetMembers(method.Name).OfType<IMethodSymbol>())
            {
                foreach (var reference in member.DeclaringSyntaxReferences.Where(r => _trees.Contains(r.SyntaxTree)))
                {
                    var syntax = reference.GetSyntax();
                    if (index.NodeFor(syntax) is { } declared)
                    {
                        bodies.Add(declared);
                    }
                    foreach (var inner in syntax.DescendantNodes(n => n == syntax || n is not (BaseTypeDeclarationSyntax or BaseNamespaceDeclarationSyntax or DelegateDeclarationSyntax))
                        .Where(n => n is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax))
                    {
                        if (index.NodeFor(inner) is { } body)
                        {
                            bodies.Add(body);
                        }
                    }
                }
            }
        }
        return [.. bodies.Where(b => b.FullName == node.FullName).SelectMany(catalogue.Of)
            .OrderBy(s => s.Site.SourceTree?.FilePath, StringComparer.Ordinal).ThenBy(s => s.Site.SourceSpan.Start).ThenBy(s => s.Site.SourceSpan.Length)];
    }

    // The method a lambda or local function is written in (the user frame names it).
    private static IMethodSymbol? Holder(IMethodSymbol symbol)
    {
        ISymbol? s = symbol;
        while (s is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction })
        {
            s = s.ContainingSymbol;
        }
        return s as IMethodSymbol;
    }
}
