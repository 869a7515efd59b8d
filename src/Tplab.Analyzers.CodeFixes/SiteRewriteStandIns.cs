using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// The part of tplab fix's <c>ISiteRewrite</c> that the linked rewrite classes implement: the form and the site's own
/// edit. fix's interface also has default members (where a site is, how async is carried up), which netstandard2.0's
/// runtime cannot hold; the editor carries async up itself (<see cref="Tplab.Analyzers.CodeFixes.DocumentAsyncPlan"/>).
/// </summary>
internal interface ISiteRewrite
{
    AsyncRewriteKind Kind { get; }

    (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token);
}

/// <summary>What the linked rewrites ask of fix's <c>SiteRewrites</c>: the refusal of a site whose shape the form does not take.</summary>
internal static class SiteRewrites
{
    public static (SiteEdit?, string?) NoForm(BlockingCall call) => (null, $"{call.Name} in this form has no mechanical async rewrite");
}
