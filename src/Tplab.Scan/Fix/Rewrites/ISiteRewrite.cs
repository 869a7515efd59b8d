using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// One form of the catalogue's rewrite column (<see cref="AsyncRewriteKind"/>) turned into code: where its site is,
/// the site's own edit, and how async is carried up from it. <see cref="SiteRewrites"/> finds one class per kind;
/// <see cref="Fixer"/> knows none of them by name.
/// </summary>
internal interface ISiteRewrite
{
    /// <summary>The catalogue form this class rewrites.</summary>
    AsyncRewriteKind Kind { get; }

    /// <summary>The refusal before the site is even looked for (a form with no mechanical rewrite); null to go on.</summary>
    string? RefusalUpfront(AsyncRewrite row) => null;

    /// <summary>The node the finding's call is at <paramref name="position"/>: by default the invocation or member read that binds to the call.</summary>
    SyntaxNode? Locate(SemanticModel model, SyntaxNode root, int position, BlockingCall call) => SiteRewrites.BoundCall(model, root, position, call);

    /// <summary>
    /// The site's own edit, or the refusal. Both null: the rewrite is all in <see cref="PropagateAsync"/>.
    /// <paramref name="token"/> is the token the new call takes where an overload does (<c>--add-cancellation</c>
    /// only: a call that had none never gains one otherwise, TPFIX004).
    /// </summary>
    (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token);

    /// <summary>Carries async up from the site: the refusal, or null when every caller was planned.</summary>
    Task<string?> PropagateAsync(AsyncPropagation propagation, SyntaxNode node, BlockingCall call) => SiteRewrites.AwaitHereAsync(propagation, node, call);
}
