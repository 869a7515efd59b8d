using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <see cref="AsyncRewriteKind.Completion"/>: a wait on a <c>ManualResetEventSlim</c>/<c>ManualResetEvent</c> its type
/// owns → <c>await e.Task</c>, the event a <c>TaskCompletionSource</c> with every use of it (<see cref="EventToCompletion"/>);
/// the site's edit is part of that change. A wait on any other handle (a Mutex a thread owns, a Semaphore, an
/// AutoResetEvent) is refused with the row's advice.
/// </summary>
internal sealed class CompletionRewrite : ISiteRewrite
{
    private static readonly string[] Events = ["System.Threading.ManualResetEventSlim", "System.Threading.ManualResetEvent"];

    public AsyncRewriteKind Kind => AsyncRewriteKind.Completion;

    public (SiteEdit? Edit, string? Refusal) Edit(RewriteSite site, string? token) =>
        site.Node is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access }
            && site.Model.GetTypeInfo(access.Expression).Type?.ToDisplayString() is { } type && Events.Contains(type)
            ? (null, null)
            : (null, FixReasons.NoAsyncForm.Say(site.Row.Advice ?? "rewrite it by hand"));

    public async Task<string?> PropagateAsync(AsyncPropagation propagation, SyntaxNode node, BlockingCall call)
    {
        var why = await propagation.EventToCompletionAsync((InvocationExpressionSyntax)node).ConfigureAwait(false);
        return why is null || FixReasons.IdIn(why) is not null ? why
            : FixReasons.NoAsyncForm.Say($"{why}; {BlockingCallCatalogue.RewriteFor(call).Advice}");
    }
}
