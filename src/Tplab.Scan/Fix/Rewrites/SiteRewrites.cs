using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Rules;
using Tplab.Scan.Fix.Checks;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// The rewrites by catalogue form: every <see cref="ISiteRewrite"/> class in this assembly, one per
/// <see cref="AsyncRewriteKind"/> (a new form is its enum value, its catalogue rows and one class here), and what
/// they share.
/// </summary>
internal static class SiteRewrites
{
    private static readonly Dictionary<AsyncRewriteKind, ISiteRewrite> ByKind = typeof(ISiteRewrite).Assembly.GetTypes()
        .Where(t => t is { IsClass: true, IsAbstract: false } && typeof(ISiteRewrite).IsAssignableFrom(t))
        .Select(t => (ISiteRewrite)Activator.CreateInstance(t)!)
        .ToDictionary(r => r.Kind);

    /// <summary>The class that rewrites <paramref name="kind"/>; null when none does (a test holds every kind to one).</summary>
    public static ISiteRewrite? ForKind(AsyncRewriteKind kind) => ByKind.GetValueOrDefault(kind);

    /// <summary>The rewrite of <paramref name="call"/>'s catalogue row.</summary>
    public static ISiteRewrite For(BlockingCall call) => ByKind[BlockingCallCatalogue.RewriteFor(call).Kind];

    /// <summary>The site's own edit by its row's rewrite, or the refusal.</summary>
    public static (SiteEdit? Edit, string? Refusal) Rewrite(SemanticModel model, SyntaxNode node, BlockingCall call, bool configureAwait, string? token = null)
    {
        var row = BlockingCallCatalogue.RewriteFor(call);
        var (edit, refusal) = ByKind[row.Kind].Edit(new RewriteSite(model, node, call, row, configureAwait), token);
        // A form the rewrite does not take (a timeout, a token, a used result): one id, unless the rewrite named another.
        return (edit, refusal is not null && FixReasons.IdIn(refusal) is null ? FixReasons.NoAsyncForm.Say(refusal) : refusal);
    }

    /// <summary>The refusal of a site whose shape its row's rewrite does not take.</summary>
    public static (SiteEdit?, string?) NoForm(BlockingCall call) =>
        (null, $"{call.Name} in this form has no mechanical async rewrite: {AsyncRewrite.For(call.Kind).Advice ?? "rewrite it by hand"}");

    /// <summary>The default propagation: the site awaited where it is, every caller carried up.</summary>
    public static async Task<string?> AwaitHereAsync(AsyncPropagation propagation, SyntaxNode node, BlockingCall call) =>
        await propagation.RequireAwaitAsync(node).ConfigureAwait(false) is { } why ? $"{call.Name} cannot be awaited where it is: {why}" : null;

    /// <summary>
    /// Scan points at the blocking member (Sleep, Result, GetResult), the expression's start for older reports: the
    /// nearest enclosing invocation or member read that binds to the call, within the statement.
    /// </summary>
    public static SyntaxNode? BoundCall(SemanticModel model, SyntaxNode root, int position, BlockingCall call)
    {
        for (var n = root.FindToken(position).Parent; n is not null && n is not (StatementSyntax or MemberDeclarationSyntax or AnonymousFunctionExpressionSyntax); n = n.Parent)
        {
            if (n is not (InvocationExpressionSyntax or MemberAccessExpressionSyntax or IdentifierNameSyntax)
                || (n is IdentifierNameSyntax && n.Parent is MemberAccessExpressionSyntax access && access.Name == n))
            {
                continue;
            }
            var symbol = model.GetSymbolInfo(n).Symbol;
            var method = symbol as IMethodSymbol ?? (symbol as IPropertySymbol)?.GetMethod;
            if (method is null || (n is not InvocationExpressionSyntax && symbol is IMethodSymbol))
            {
                continue;
            }
            var frame = SymbolNames.Frame(method);
            if (frame.TypeName == call.Frame.TypeName && frame.MethodName == call.Frame.MethodName)
            {
                return n;
            }
        }
        return null;
    }
}
