using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <see cref="AsyncRewriteKind.QueryList"/>: EF Core's <c>RemoveRange(query)</c>, which runs the query synchronously to
/// find the entities, → <c>RemoveRange(await query.ToListAsync())</c>: the same query, run by EF's async path, then
/// the same entities removed. Only where the query is EF Core's: built on a <c>DbSet&lt;T&gt;</c> through <c>Queryable</c>
/// or EF's own operators, directly or through a method of the solution that returns one expression (an in-memory
/// <c>AsQueryable()</c> has no async provider: <c>ToListAsync</c> would throw there).
/// </summary>
internal sealed class QueryListRewrite : ISiteRewrite
{
    private const string Extensions = "Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions";

    public AsyncRewriteKind Kind => AsyncRewriteKind.QueryList;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token)
    {
        var model = site.Model;
        if (site.Node is not InvocationExpressionSyntax { ArgumentList.Arguments: [{ NameColon: null, RefKindKeyword.RawKind: (int)SyntaxKind.None } argument] } call)
        {
            return SiteRewrites.NoForm(site.Call);
        }
        var query = argument.Expression;
        if (!FromDbSet(model, query, depth: 0))
        {
            return (null, FixReasons.NoAsyncForm.Say($"the query passed to {site.Call.Name} ({query}) is not built on an EF Core DbSet tplab can follow, so ToListAsync may have no async provider to run it: {site.Row.Advice}"));
        }
        var args = token is null ? "" : token;
        var asExtension = SyntaxFactory.ParseExpression($"{Parenthesized(query)}.ToListAsync({args})");
        var usings = new List<string>();
        if (!Binds(model, query, asExtension))
        {
            var qualified = SyntaxFactory.ParseExpression($"global::{Extensions}.ToListAsync({query.WithoutTrivia()}{(token is null ? "" : ", " + token)})");
            if (!Binds(model, query, qualified))
            {
                return (null, FixReasons.NoAsyncForm.Say($"EF Core's ToListAsync does not bind on {query}: {site.Row.Advice}"));
            }
            usings.Add("Microsoft.EntityFrameworkCore");
        }
        return (new SiteEdit(call, n =>
        {
            var current = (InvocationExpressionSyntax)n;
            var arg = current.ArgumentList.Arguments[0];
            var awaited = AsyncSyntax.Await(asExtension, arg.Expression, site.ConfigureAwait);
            return current.WithArgumentList(current.ArgumentList.WithArguments(SyntaxFactory.SingletonSeparatedList(arg.WithExpression(awaited))));
        }, usings, $"{site.Call.Name}(query) → {site.Call.Name}(await query.ToListAsync({args}))"), null);
    }

    private static string Parenthesized(ExpressionSyntax query) =>
        query is IdentifierNameSyntax or MemberAccessExpressionSyntax or InvocationExpressionSyntax ? query.WithoutTrivia().ToString() : $"({query.WithoutTrivia()})";

    private static bool Binds(SemanticModel model, SyntaxNode at, ExpressionSyntax candidate) =>
        model.GetSpeculativeSymbolInfo(at.SpanStart, candidate, SpeculativeBindingOption.BindAsExpression).Symbol is IMethodSymbol { Name: "ToListAsync" } bound
        && (bound.ReducedFrom ?? bound).ContainingType.ToDisplayString() == Extensions;

    // The query's source is a DbSet<T>: through Queryable's and EF's operators, and through at most three methods of
    // the solution that return one expression.
    private static bool FromDbSet(SemanticModel model, ExpressionSyntax query, int depth)
    {
        for (var e = query; ;)
        {
            var type = model.GetTypeInfo(e).Type;
            if (IsDbSet(type))
            {
                return true;
            }
            if (e is ParenthesizedExpressionSyntax p)
            {
                e = p.Expression;
                continue;
            }
            if (e is not InvocationExpressionSyntax inv || model.GetSymbolInfo(inv).Symbol is not IMethodSymbol method)
            {
                return false;
            }
            var holder = (method.ReducedFrom ?? method).ContainingType.ToDisplayString();
            if (method.IsExtensionMethod && holder is "System.Linq.Queryable" or Extensions && inv.Expression is MemberAccessExpressionSyntax ma)
            {
                e = ma.Expression;
                continue;
            }
            return depth < 3 && Returned(method) is { } body && model.Compilation.GetSemanticModel(body.SyntaxTree) is var bodyModel
                && FromDbSet(bodyModel, body, depth + 1);
        }
    }

    private static bool IsDbSet(ITypeSymbol? type)
    {
        for (var t = type as INamedTypeSymbol; t is not null; t = t.BaseType)
        {
            if (t.OriginalDefinition.ToDisplayString() == "Microsoft.EntityFrameworkCore.DbSet<TEntity>")
            {
                return true;
            }
        }
        return false;
    }

    // The one expression a source method returns (an expression body or a single return), or null.
    private static ExpressionSyntax? Returned(IMethodSymbol method) =>
        method.DeclaringSyntaxReferences is [var reference] && reference.GetSyntax() is MethodDeclarationSyntax declaration
            ? declaration.ExpressionBody?.Expression ?? (declaration.Body?.Statements is [ReturnStatementSyntax { Expression: { } returned }] ? returned : null)
            : null;
}
