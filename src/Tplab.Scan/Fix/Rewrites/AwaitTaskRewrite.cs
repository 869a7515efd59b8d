using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary><see cref="AsyncRewriteKind.AwaitTask"/>: <c>t.Result</c>, <c>t.Wait()</c>, <c>t.GetAwaiter().GetResult()</c> → <c>await t</c>.</summary>
internal sealed class AwaitTaskRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.AwaitTask;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token)
    {
        var (node, configureAwait) = (site.Node, site.ConfigureAwait);
        switch (node)
        {
            // t.Result
            case MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Result" }:
                return (new SiteEdit(node, n => AsyncSyntax.Await(((MemberAccessExpressionSyntax)n).Expression, node, configureAwait), [], ".Result → await"), null);
            // t.Wait()
            case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Wait" } } w:
                if (w.ArgumentList.Arguments.Count > 0)
                {
                    return (null, "Wait with a timeout or a token returns whether the task finished: use await task.WaitAsync(timeout, token) and handle TimeoutException");
                }
                return (new SiteEdit(node, n => AsyncSyntax.Await(((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)n).Expression).Expression, node, configureAwait), [], ".Wait() → await"), null);
            // t.GetAwaiter().GetResult()
            case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetResult", Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetAwaiter" } } } }:
                return (new SiteEdit(node, n =>
                {
                    var getAwaiter = (InvocationExpressionSyntax)((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)n).Expression).Expression;
                    return AsyncSyntax.Await(((MemberAccessExpressionSyntax)getAwaiter.Expression).Expression, node, configureAwait);
                }, [], ".GetAwaiter().GetResult() → await"), null);
            default:
                return (null, "this wait on a task is not in a form tplab rewrites (.Result, .Wait(), .GetAwaiter().GetResult()): await the task by hand");
        }
    }
}
