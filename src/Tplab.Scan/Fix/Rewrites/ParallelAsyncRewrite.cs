using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary><see cref="AsyncRewriteKind.ParallelAsync"/>: <c>Parallel.ForEach</c>/<c>For</c> → <c>await Parallel.ForEachAsync</c>/<c>ForAsync</c> (<see cref="ParallelLoops"/>).</summary>
internal sealed class ParallelAsyncRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.ParallelAsync;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token) =>
        site.Node is InvocationExpressionSyntax inv ? ParallelLoops.Rewrite(site.Model, inv, site.ConfigureAwait) : SiteRewrites.NoForm(site.Call);
}
