using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <see cref="AsyncRewriteKind.Sibling"/>: <c>x.M(args)</c> → <c>await x.MAsync(args)</c> (a property read →
/// <c>await x.Member()</c> where the row names it), the sibling as the compiler binds it, returning the same result.
/// </summary>
internal sealed class SiblingRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.Sibling;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token)
    {
        var (model, node, call, configureAwait) = (site.Model, site.Node, site.Call, site.ConfigureAwait);
        if (site.Row.Member is { } member && node is MemberAccessExpressionSyntax read && model.GetSymbolInfo(read).Symbol is IPropertySymbol property)
        {
            foreach (var extra in token is null ? [""] : new[] { token, "" })
            {
                var candidate = SyntaxFactory.ParseExpression($"{read.Expression.WithoutTrivia()}.{member}({extra})");
                if (model.GetSpeculativeSymbolInfo(node.SpanStart, candidate, SpeculativeBindingOption.BindAsExpression).Symbol is IMethodSymbol bound && AsyncSiblings.Matches(bound, property.Type))
                {
                    return (new SiteEdit(node, _ => AsyncSyntax.Await(candidate, node, configureAwait), [], $"{property.Name} → await {member}" + (extra.Length > 0 ? $" (with {extra})" : "")), null);
                }
            }
            return (null, $"{call.Name} has no {member} here returning the same result: rewrite it by hand");
        }
        if (node is not InvocationExpressionSyntax inv || model.GetSymbolInfo(inv).Symbol is not IMethodSymbol method)
        {
            return SiteRewrites.NoForm(call);
        }
        if (inv.Expression is MemberBindingExpressionSyntax)
        {
            return (null, $"{call.Name} is called through ?.: rewrite it as an awaited call by hand");
        }
        if (AsyncSiblings.Find(model, inv, method, token) is not { } sibling)
        {
            return (null, $"{SymbolNames.Short(method)} has no async sibling returning the same result ({method.Name}Async with the same arguments does not bind here): look for the library's async API or move the call off the request path");
        }
        var siblingCall = (InvocationExpressionSyntax)sibling.Call;
        return (new SiteEdit(node, n => AsyncSyntax.Await(((InvocationExpressionSyntax)n).WithExpression(siblingCall.Expression).WithArgumentList(siblingCall.ArgumentList), node, configureAwait),
            sibling.Using is null ? [] : [sibling.Using], $"{method.Name} → await {sibling.Method.Name}" + (token is not null && siblingCall.ArgumentList.Arguments.LastOrDefault()?.ToString() == token ? $" (with {token})" : "")), null);
    }
}
