using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary><see cref="AsyncRewriteKind.WhenAny"/>: <c>Task.WaitAny(ts)</c> → <c>await Task.WhenAny(ts)</c>, only where its index is not used.</summary>
internal sealed class WhenAnyRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.WhenAny;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token)
    {
        var (edit, refusal) = WhenAllRewrite.Combine(site, "WhenAny");
        return edit is not null && site.Node.Parent is not ExpressionStatementSyntax
            ? (null, "Task.WaitAny's index is used: await Task.WhenAny(tasks) returns the finished task, not its index; rewrite the use by hand")
            : (edit, refusal);
    }
}
