using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Rules;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// The references to a method whose return type became a task: each call is awaited where its code can await (asked
/// of <paramref name="requireAwait"/>, which makes that code async in turn), or waits on the task
/// (<c>.GetAwaiter().GetResult()</c>) where it cannot, named as a <see cref="Boundary"/>; a reference that is not a
/// call (a method group, <c>?.</c>) is checked or noted.
/// </summary>
internal sealed class CallerUpdate(FixContext context, Func<SyntaxNode, Task<string?>> requireAwait, List<string>? reshaped = null)
{
    public List<Boundary> Boundaries { get; } = [];

    /// <summary>Places the compiler may reject that no edit covers (a changed method passed as a delegate).</summary>
    public List<string> Notes { get; } = [];

    /// <summary>Awaits <paramref name="call"/> when its code can await, else waits on its task and records the boundary.</summary>
    /// <param name="passToken">The callee gained a token parameter (<c>--add-cancellation</c>): the caller's token is passed to it.</param>
    public async Task AwaitOrBlockAsync(SemanticModel model, InvocationExpressionSyntax call, bool passToken = false)
    {
        var changes = context.Changes;
        if (changes.IsReplaced(call))
        {
            return;
        }
        var why = await requireAwait(call).ConfigureAwait(false);
        var configure = changes.ConfigureAwait(call.SyntaxTree);
        if (why is null)
        {
            var token = passToken ? context.Token(model, call) : null;
            var positional = call.ArgumentList.Arguments.All(a => a.NameColon is null)
                && model.GetSymbolInfo(call, context.CancellationToken).Symbol is IMethodSymbol callee && call.ArgumentList.Arguments.Count == callee.Parameters.Length;
            changes.Replace(call, n => AsyncSyntax.Await(token is null ? (ExpressionSyntax)n : AsyncSyntax.AddTokenArgument((InvocationExpressionSyntax)n, token, FixContext.TokenParameter, positional), call, configure));
            return;
        }
        changes.Replace(call, n => AsyncSyntax.Block((ExpressionSyntax)n));
        var caller = model.GetEnclosingSymbol(call.SpanStart, context.CancellationToken);
        while (caller is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } && caller.ContainingSymbol is { } outer)
        {
            caller = outer;
        }
        var (type, name) = caller is IMethodSymbol cm ? SymbolNames.UserMethod(cm) : (caller?.ContainingType?.ToDisplayString() ?? "", caller?.Name ?? "?");
        var display = $"{type[(type.LastIndexOf('.') + 1)..]}.{name}";
        Boundaries.Add(new Boundary(display, type + "." + name, context.RelativePath(call), call.GetLocation().GetLineSpan().StartLinePosition.Line + 1, why));
    }

    /// <summary>Why the method referenced at <paramref name="location"/> cannot return a task there (a method group converted to a delegate that returns none); else null.</summary>
    public async Task<string?> DelegateUseAsync(Location location)
    {
        if (location.SourceTree is not { } tree)
        {
            return null;
        }
        var root = await tree.GetRootAsync(context.CancellationToken).ConfigureAwait(false);
        if (root.FindNode(location.SourceSpan, getInnermostNodeForTie: true) is not SimpleNameSyntax simple)
        {
            return null;
        }
        ExpressionSyntax used = simple.Parent is MemberAccessExpressionSyntax ma && ma.Name == simple ? ma : simple;
        if (used.Parent is InvocationExpressionSyntax call && call.Expression == used)
        {
            return null;
        }
        var model = await context.ModelAsync(tree).ConfigureAwait(false);
        if (model.GetTypeInfo(used, context.CancellationToken).ConvertedType is INamedTypeSymbol { TypeKind: TypeKind.Delegate, DelegateInvokeMethod: { } invoke } type
            && type.ToDisplayString() is not ("System.Delegate" or "System.MulticastDelegate") && !FixTypes.IsTask(invoke.ReturnType)
            && !FixTypes.IsTimerCallback(type))
        {
            return FixReasons.DelegateType.Say($"it is passed as a {type.ToDisplayString()} at {context.Where(simple)}, a delegate that returns no task");
        }
        return null;
    }

    /// <summary>One reference to a changed method: renamed when <paramref name="newName"/> is set, awaited when it is a call.</summary>
    public async Task ReferenceAsync(Location location, string? newName, bool passToken = false)
    {
        if (location.SourceTree is not { } tree)
        {
            return;
        }
        var root = await tree.GetRootAsync(context.CancellationToken).ConfigureAwait(false);
        var name = root.FindNode(location.SourceSpan, getInnermostNodeForTie: true);
        if (name is not SimpleNameSyntax simple)
        {
            return;
        }
        if (newName is not null)
        {
            context.Changes.Rename(simple, newName);
        }
        ExpressionSyntax called = simple.Parent is MemberAccessExpressionSyntax ma && ma.Name == simple ? ma : simple;
        var model = await context.ModelAsync(tree).ConfigureAwait(false);
        if (called.Parent is InvocationExpressionSyntax call && call.Expression == called)
        {
            await AwaitOrBlockAsync(model, call, passToken).ConfigureAwait(false);
            return;
        }
        if (simple.Parent is MemberBindingExpressionSyntax)
        {
            Notes.Add($"{context.Where(simple)}: called through ?.; await it by hand");
            return;
        }
        if (called.Parent is ArgumentSyntax { Parent.Parent: InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } } })
        {
            return;
        }
        var converted = model.GetTypeInfo(called, context.CancellationToken).ConvertedType;
        if (converted?.ToDisplayString() is "System.Delegate" or "System.MulticastDelegate")
        {
            return;
        }
        if (FixTypes.IsTimerCallback(converted))
        {
            // new Timer(Sync, …) → new Timer(async state => await SyncAsync(state), …): async void, as a timer callback
            // may be (an exception still ends the process, and ticks still overlap when the work outlasts the period).
            var configure = context.Changes.ConfigureAwait(tree);
            context.Changes.Replace(called, n => AsyncLambda.TimerWrap((ExpressionSyntax)n, configure));
            reshaped?.Add(AsyncLambda.TimerNote(context.Where(simple)));
            return;
        }
        Notes.Add($"{context.Where(simple)}: used as a delegate ({converted?.ToDisplayString() ?? "unknown type"}); its delegate type must return a task");
    }
}
