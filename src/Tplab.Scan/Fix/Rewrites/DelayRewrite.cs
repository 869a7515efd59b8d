using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary><see cref="AsyncRewriteKind.Delay"/>: <c>Thread.Sleep(x)</c> → <c>await Task.Delay(x)</c>, with the token only under <c>--add-cancellation</c>.</summary>
internal sealed class DelayRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.Delay;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token)
    {
        if (site.Node is not InvocationExpressionSyntax inv)
        {
            return SiteRewrites.NoForm(site.Call);
        }
        var task = TaskName(site.Model, inv);
        var args = inv.ArgumentList.Arguments.Select(a => a.ToString()).ToList();
        if (token is not null)
        {
            args.Add(token);
        }
        var delay = SyntaxFactory.ParseExpression($"{task}.Delay({string.Join(", ", args)})");
        return (new SiteEdit(inv, _ => AsyncSyntax.Await(delay, inv, site.ConfigureAwait), [], "Thread.Sleep → await Task.Delay" + (token is null ? "" : $" (with {token})")), null);
    }

    /// <summary><c>Task</c> where it names System.Threading.Tasks.Task at <paramref name="at"/>, else the qualified name.</summary>
    private static string TaskName(SemanticModel model, SyntaxNode at) =>
        model.LookupNamespacesAndTypes(at.SpanStart, name: "Task").Any(s => s.ToDisplayString() == "System.Threading.Tasks.Task")
            ? "Task" : "System.Threading.Tasks.Task";
}
