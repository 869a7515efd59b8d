using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <see cref="AsyncRewriteKind.QueryList"/>: EF Core's <c>RemoveRange(query)</c>, which runs the query synchronously to
/// find the entities, → <c>RemoveRange(await query.ToListAsync())</c>: the same query, run by EF's async path, then
/// the same entities removed. Only where the query is EF Core's on every path, by the rule scan reports it with
/// (<see cref="Queries.Trace"/>): a <c>DbSet&lt;T&gt;</c>, <c>FromSql</c> or <c>DbContext.Set</c> through <c>Queryable</c>'s
/// or EF's operators, a local holding only such a query, or a method of the solution that returns one expression (an
/// in-memory <c>AsQueryable()</c> has no async provider: <c>ToListAsync</c> would throw there).
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
        if (!FromDatabase(model, query))
        {
            return (null, FixReasons.NoAsyncForm.Say($"the query passed to {site.Call.Name} ({query}) is not built on an EF Core DbSet tplab can follow on every path, so ToListAsync may have no async provider to run it: {site.Row.Advice}"));
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

    // The one rule scan reports a database query by (Queries.Trace), asked for every path: a DbSet (or EF's FromSql,
    // DbContext.Set) through LINQ's and EF's operators, locals holding only such a query, and the solution's methods
    // that return one expression.
    private static bool FromDatabase(SemanticModel model, ExpressionSyntax query)
    {
        var op = model.GetOperation(query);
        var body = op;
        while (body?.Parent is not null)
        {
            body = body.Parent;
        }
        return body is not null && Queries.Trace(op, body, new OneExpressionMethods(model.Compilation), everyPath: true).Origin == QueryOrigin.Database;
    }

    /// <summary>What a method of the solution returns, for fix: only a method with one returned expression (an expression body or a single return), so every path is the one traced.</summary>
    private sealed class OneExpressionMethods(Compilation compilation) : IArgumentSource
    {
        public IEnumerable<(IOperation Value, IOperation Body)> ArgumentsFor(IParameterSymbol parameter) => [];

        public IReadOnlyList<(IOperation Value, IOperation Body)> AssignedTo(IFieldSymbol field) => [];

        public IReadOnlyList<(IOperation Value, IOperation Body)> ReturnedBy(IMethodSymbol method)
        {
            if ((method.ReducedFrom ?? method).DeclaringSyntaxReferences is not [var reference] || reference.GetSyntax() is not MethodDeclarationSyntax declaration
                || (declaration.ExpressionBody?.Expression ?? (declaration.Body?.Statements is [ReturnStatementSyntax { Expression: { } one }] ? one : null)) is not { } returned)
            {
                return [];
            }
            if (!compilation.ContainsSyntaxTree(reference.SyntaxTree))
            {
                return [];
            }
            var model = compilation.GetSemanticModel(reference.SyntaxTree);
            return model.GetOperation(returned) is { } value && model.GetOperation(declaration) is { } body ? [(value, body)] : [];
        }
    }
}
