using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Fix.Checks;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <see cref="AsyncRewriteKind.Semaphore"/>: a contended <c>lock</c> itself becomes a <c>SemaphoreSlim(1, 1)</c>,
/// awaited, with every lock on its object (<see cref="LockToSemaphore"/>); the site has no call to edit. Any other
/// shape of the row (a <c>Monitor.Enter</c> call) is refused with the row's advice.
/// </summary>
internal sealed class SemaphoreRewrite : ISiteRewrite
{
    public AsyncRewriteKind Kind => AsyncRewriteKind.Semaphore;

    public SyntaxNode? Locate(SemanticModel model, SyntaxNode root, int position, BlockingCall call) =>
        root.FindToken(position) is { RawKind: (int)SyntaxKind.LockKeyword, Parent: LockStatementSyntax lockStatement }
            ? lockStatement
            : SiteRewrites.BoundCall(model, root, position, call);

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token) =>
        site.Node is LockStatementSyntax ? (null, null) : SiteRewrites.NoForm(site.Call);

    public async Task<string?> PropagateAsync(AsyncPropagation propagation, SyntaxNode node, BlockingCall call) =>
        node is not LockStatementSyntax lockStatement ? await SiteRewrites.AwaitHereAsync(propagation, node, call).ConfigureAwait(false)
            : await propagation.LockToSemaphoreAsync(lockStatement).ConfigureAwait(false) is { } why
                ? FixReasons.LockKept.Say($"the lock cannot become a SemaphoreSlim(1, 1): {why}; otherwise keep the blocking work out of the lock")
                : null;
}
