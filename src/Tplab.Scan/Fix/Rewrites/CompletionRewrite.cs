using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <see cref="AsyncRewriteKind.Completion"/>: a wait on a handle its type owns becomes the awaited form of what the
/// handle is used as, with every use of it: a <c>ManualResetEventSlim</c>/<c>ManualResetEvent</c> (a one-shot signal)
/// → <c>await e.Task</c> on a <c>TaskCompletionSource</c> (<see cref="EventToCompletion"/>); a private, unnamed
/// <c>Mutex</c> (a process-local lock) → <c>await m.WaitAsync()</c> on a <c>SemaphoreSlim(1, 1)</c>
/// (<see cref="MutexToSemaphore"/>). The site's edit is part of that change. A wait on any other handle (a Semaphore,
/// an AutoResetEvent) is refused with the row's advice.
/// </summary>
internal sealed class CompletionRewrite : ISiteRewrite
{
    private static readonly string[] Events = ["System.Threading.ManualResetEventSlim", "System.Threading.ManualResetEvent"];

    public AsyncRewriteKind Kind => AsyncRewriteKind.Completion;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token) =>
        Handle(site.Model, site.Node) is { } type && (Events.Contains(type) || type == ThreadAffinity.Mutex)
            ? (null, null)
            : (null, FixReasons.NoAsyncForm.Say(site.Row.Advice ?? "rewrite it by hand"));

    public async Task<string?> PropagateAsync(AsyncPropagation propagation, SyntaxNode node, BlockingCall call)
    {
        var wait = (InvocationExpressionSyntax)node;
        if (Handle(await propagation.ModelAsync(node.SyntaxTree).ConfigureAwait(false), node) == ThreadAffinity.Mutex)
        {
            return await propagation.MutexToSemaphoreAsync(wait).ConfigureAwait(false) is { } kept
                ? FixReasons.LockKept.Say($"the Mutex cannot become a SemaphoreSlim(1, 1): {kept}; otherwise keep the blocking work out of its region, or give the region a SemaphoreSlim by hand")
                : null;
        }
        var why = await propagation.EventToCompletionAsync(wait).ConfigureAwait(false);
        return why is null || FixReasons.IdIn(why) is not null ? why
            : FixReasons.NoAsyncForm.Say($"{why}; {BlockingCallCatalogue.RewriteFor(call).Advice}");
    }

    // The type of the handle the wait is on.
    private static string? Handle(SemanticModel model, SyntaxNode node) =>
        node is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access } ? model.GetTypeInfo(access.Expression).Type?.ToDisplayString() : null;
}
