using System.Collections.Immutable;
using System.Composition;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Analyzers.CodeFixes;

/// <summary>
/// The editor's fix for TPL0001 (<c>Thread.Sleep(x)</c> → <c>await Task.Delay(x)</c>) and TPL0002 (<c>.Result</c>,
/// <c>.Wait()</c>, <c>.GetAwaiter().GetResult()</c> → <c>await</c>): tplab fix's single-document case, offered only where
/// <see cref="DocumentAsyncPlan"/> finds every change in the one document and none of fix's refusals. Every other
/// diagnostic, and these where fix would go further, get no code action: the message names
/// <c>tplab fix --finding ID</c> (docs/analyzers.md, "Code fixes").
/// </summary>
[ExportCodeFixProvider(Microsoft.CodeAnalysis.LanguageNames.CSharp, Name = nameof(BlockingCodeFixProvider)), Shared]
public sealed class BlockingCodeFixProvider : CodeFixProvider
{
    public override ImmutableArray<string> FixableDiagnosticIds { get; } =
        [DiagnosticIds.For(BlockingKind.Sleep), DiagnosticIds.For(BlockingKind.SyncOverAsync)];

    // Fix All merges each site's change; two sites whose changes overlap (one method made async for both) are taken
    // one per pass, as the IDE's Fix All runs again over what is left.
    public override FixAllProvider GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        var root = await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false);
        var model = await context.Document.GetSemanticModelAsync(context.CancellationToken).ConfigureAwait(false);
        if (root is null || model is null)
        {
            return;
        }
        foreach (var diagnostic in context.Diagnostics)
        {
            // A call into another assembly's blocking method is the library's to fix.
            if (diagnostic.Properties.ContainsKey(DiagnosticIds.FromAssemblyProperty)
                || !diagnostic.Properties.TryGetValue(DiagnosticIds.KindProperty, out var kindName)
                || !Enum.TryParse<BlockingKind>(kindName, out var kind)
                || !diagnostic.Properties.TryGetValue(DiagnosticIds.CallProperty, out var name)
                || Site(model, root, diagnostic, context.CancellationToken) is not { } site)
            {
                continue;
            }
            var call = new BlockingCall(kind, name ?? "", SymbolNames.Frame(site.Method));
            if (BlockingCallCatalogue.EntryFor(call.Frame) is null)
            {
                continue;
            }
            var (plan, _) = await DocumentAsyncPlan.MakeAsync(context.Document, model, site.Node, call, context.CancellationToken).ConfigureAwait(false);
            if (plan is null)
            {
                continue;
            }
            var title = plan.Site.Description + (plan.Containers.Count > 0 ? $" ({Made(plan.Containers.Count)} async)" : "");
            context.RegisterCodeFix(
                CodeAction.Create(title, ct => DocumentAsyncEdit.ApplyAsync(context.Document, plan, ct), "tplab:" + BlockingCallCatalogue.RewriteFor(call).Kind),
                diagnostic);
        }
    }

    private static string Made(int count) => count == 1 ? "1 method made" : $"{count.ToString(System.Globalization.CultureInfo.InvariantCulture)} methods made";

    // The blocking call the diagnostic's token names: the invocation (Sleep, Wait, GetResult) or the member read (Result).
    private static (SyntaxNode Node, IMethodSymbol Method)? Site(SemanticModel model, SyntaxNode root, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        if (!diagnostic.Location.IsInSource || root.FindToken(diagnostic.Location.SourceSpan.Start).Parent is not SimpleNameSyntax name)
        {
            return null;
        }
        var access = name.Parent is MemberAccessExpressionSyntax member && member.Name == name ? member : (ExpressionSyntax)name;
        SyntaxNode node = access.Parent is InvocationExpressionSyntax invocation && invocation.Expression == access ? invocation : access;
        var symbol = model.GetSymbolInfo(node, cancellationToken).Symbol;
        return (symbol as IMethodSymbol ?? (symbol as IPropertySymbol)?.GetMethod) is { } method ? (node, method) : null;
    }
}
