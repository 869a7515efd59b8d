using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// Rewrites one blocking call into its awaited form, the shape taken from the blocking catalogue's row
/// (<see cref="BlockingCallCatalogue.RewriteFor"/>): <c>await t</c>, <c>await Task.WhenAll</c>, <c>await Task.Delay</c>,
/// or the async sibling the compiler binds. What has no mechanical rewrite is refused with the row's advice.
/// </summary>
internal static class SiteRewriter
{
    /// <param name="token">
    /// The token the new call takes where an overload does (<c>--add-cancellation</c> only: a call that had none never
    /// gains one otherwise, TPFIX004): one in scope, or the parameter the fix gives the method around the site.
    /// </param>
    public static (SiteEdit? Edit, string? Refusal) Rewrite(SemanticModel model, SyntaxNode site, BlockingCall call, bool configureAwait, string? token = null)
    {
        var rewrite = BlockingCallCatalogue.RewriteFor(call);
        switch (rewrite.Kind)
        {
            case AsyncRewriteKind.None:
                return (null, rewrite.Advice);
            case AsyncRewriteKind.AwaitTask:
                return AwaitTask(site, configureAwait);
            case AsyncRewriteKind.WhenAll or AsyncRewriteKind.WhenAny when site is InvocationExpressionSyntax inv && inv.Expression is MemberAccessExpressionSyntax ma:
                if (model.GetSymbolInfo(inv).Symbol is not IMethodSymbol m || m.Parameters.Length != 1)
                {
                    // The tasks alone (params array, params span, enumerable) have a WhenAll/WhenAny twin; a timeout or a token changes the meaning.
                    return (null, $"{call.Name} with a timeout or a token returns whether the tasks finished: use await Task.{(rewrite.Kind == AsyncRewriteKind.WhenAll ? "WhenAll" : "WhenAny")}(tasks).WaitAsync(timeout) and handle TimeoutException");
                }
                if (rewrite.Kind == AsyncRewriteKind.WhenAny && site.Parent is not ExpressionStatementSyntax)
                {
                    return (null, "Task.WaitAny's index is used: await Task.WhenAny(tasks) returns the finished task, not its index; rewrite the use by hand");
                }
                var when = rewrite.Kind == AsyncRewriteKind.WhenAll ? "WhenAll" : "WhenAny";
                return (new SiteEdit(site, n => AsyncSyntax.Await(((InvocationExpressionSyntax)n).WithExpression(ma.WithName(SyntaxFactory.IdentifierName(when))), site, configureAwait), [],
                    $"Task.{ma.Name.Identifier.ValueText} → await Task.{when}"), null);
            case AsyncRewriteKind.Delay when site is InvocationExpressionSyntax inv:
                var task = TaskName(model, site);
                var args = inv.ArgumentList.Arguments.Select(a => a.ToString()).ToList();
                if (token is not null)
                {
                    args.Add(token);
                }
                var delay = SyntaxFactory.ParseExpression($"{task}.Delay({string.Join(", ", args)})");
                return (new SiteEdit(site, _ => AsyncSyntax.Await(delay, site, configureAwait), task == "Task" ? [] : [], "Thread.Sleep → await Task.Delay" + (token is null ? "" : $" (with {token})")), null);
            case AsyncRewriteKind.Sibling when rewrite.Member is { } member && site is MemberAccessExpressionSyntax read && model.GetSymbolInfo(read).Symbol is IPropertySymbol property:
                foreach (var extra in token is null ? [""] : new[] { token, "" })
                {
                    var candidate = SyntaxFactory.ParseExpression($"{read.Expression.WithoutTrivia()}.{member}({extra})");
                    if (model.GetSpeculativeSymbolInfo(site.SpanStart, candidate, SpeculativeBindingOption.BindAsExpression).Symbol is IMethodSymbol bound && AsyncSiblings.Matches(bound, property.Type))
                    {
                        return (new SiteEdit(site, _ => AsyncSyntax.Await(candidate, site, configureAwait), [], $"{property.Name} → await {member}" + (extra.Length > 0 ? $" (with {extra})" : "")), null);
                    }
                }
                return (null, $"{call.Name} has no {member} here returning the same result: rewrite it by hand");
            case AsyncRewriteKind.Sibling when site is InvocationExpressionSyntax inv && model.GetSymbolInfo(inv).Symbol is IMethodSymbol method:
                if (inv.Expression is MemberBindingExpressionSyntax)
                {
                    return (null, $"{call.Name} is called through ?.: rewrite it as an awaited call by hand");
                }
                if (AsyncSiblings.Find(model, inv, method, token) is not { } sibling)
                {
                    return (null, $"{SymbolNames.Short(method)} has no async sibling returning the same result ({method.Name}Async with the same arguments does not bind here): look for the library's async API or move the call off the request path");
                }
                return (new SiteEdit(site, n => AsyncSyntax.Await(((InvocationExpressionSyntax)n).WithExpression(((InvocationExpressionSyntax)sibling.Call).Expression).WithArgumentList(((InvocationExpressionSyntax)sibling.Call).ArgumentList), site, configureAwait),
                    sibling.Using is null ? [] : [sibling.Using], $"{method.Name} → await {sibling.Method.Name}" + (token is not null && ((InvocationExpressionSyntax)sibling.Call).ArgumentList.Arguments.LastOrDefault()?.ToString() == token ? $" (with {token})" : "")), null);
            case AsyncRewriteKind.ParallelAsync when site is InvocationExpressionSyntax inv:
                return ParallelLoops.Rewrite(model, inv, configureAwait);
            default:
                return (null, $"{call.Name} in this form has no mechanical async rewrite: {AsyncRewrite.For(call.Kind).Advice ?? "rewrite it by hand"}");
        }
    }

    private static (SiteEdit?, string?) AwaitTask(SyntaxNode site, bool configureAwait)
    {
        switch (site)
        {
            // t.Result
            case MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Result" } r:
                return (new SiteEdit(site, n => AsyncSyntax.Await(((MemberAccessExpressionSyntax)n).Expression, site, configureAwait), [], ".Result → await"), null);
            // t.Wait()
            case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Wait" } } w:
                if (w.ArgumentList.Arguments.Count > 0)
                {
                    return (null, "Wait with a timeout or a token returns whether the task finished: use await task.WaitAsync(timeout, token) and handle TimeoutException");
                }
                return (new SiteEdit(site, n => AsyncSyntax.Await(((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)n).Expression).Expression, site, configureAwait), [], ".Wait() → await"), null);
            // t.GetAwaiter().GetResult()
            case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetResult", Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetAwaiter" } } } }:
                return (new SiteEdit(site, n =>
                {
                    var getAwaiter = (InvocationExpressionSyntax)((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)n).Expression).Expression;
                    return AsyncSyntax.Await(((MemberAccessExpressionSyntax)getAwaiter.Expression).Expression, site, configureAwait);
                }, [], ".GetAwaiter().GetResult() → await"), null);
            default:
                return (null, "this wait on a task is not in a form tplab rewrites (.Result, .Wait(), .GetAwaiter().GetResult()): await the task by hand");
        }
    }

    /// <summary><c>Task</c> where it names System.Threading.Tasks.Task at <paramref name="at"/>, else the qualified name.</summary>
    public static string TaskName(SemanticModel model, SyntaxNode at) =>
        model.LookupNamespacesAndTypes(at.SpanStart, name: "Task").Any(s => s.ToDisplayString() == "System.Threading.Tasks.Task")
            ? "Task" : "System.Threading.Tasks.Task";
}
