using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary><see cref="AsyncRewriteKind.None"/>: no mechanical rewrite; the finding is refused with its row's advice.</summary>
internal sealed class NoRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.None;

    public string? RefusalUpfront(AsyncRewrite row) => FixReasons.NoAsyncForm.Say(row.Advice ?? "rewrite it by hand");

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token) => (null, RefusalUpfront(site.Row));
}
