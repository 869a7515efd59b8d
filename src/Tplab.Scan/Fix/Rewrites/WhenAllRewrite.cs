using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary><see cref="AsyncRewriteKind.WhenAll"/>: <c>Task.WaitAll(ts)</c> → <c>await Task.WhenAll(ts)</c>.</summary>
internal sealed class WhenAllRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.WhenAll;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token) => Combine(site, "WhenAll");

    /// <summary><c>Task.WaitAll</c>/<c>WaitAny</c> over the tasks alone → <c>await Task.<paramref name="when"/></c>; with a timeout or a token refused.</summary>
    internal static (SiteEdit?, string?) Combine(RewriteSite site, string when)
    {
        if (site.Node is not InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax ma } inv)
        {
            return SiteRewrites.NoForm(site.Call);
        }
        if (site.Model.GetSymbolInfo(inv).Symbol is not IMethodSymbol m || m.Parameters.Length != 1)
        {
            // The tasks alone (params array, params span, enumerable) have a WhenAll/WhenAny twin; a timeout or a token changes the meaning.
            return (null, $"{site.Call.Name} with a timeout or a token returns whether the tasks finished: use await Task.{when}(tasks).WaitAsync(timeout) and handle TimeoutException");
        }
        var node = site.Node;
        return (new SiteEdit(node, n => AsyncSyntax.Await(((InvocationExpressionSyntax)n).WithExpression(ma.WithName(SyntaxFactory.IdentifierName(when))), node, site.ConfigureAwait), [],
            $"Task.{ma.Name.Identifier.ValueText} → await Task.{when}"), null);
    }
}
