using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Fix.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A one-shot event a request waits on becomes a <c>TaskCompletionSource</c> (continuations run asynchronously, so
/// the thread that signals it does not run the waiter's code): <c>e.Wait()</c>/<c>e.WaitOne()</c> → <c>await e.Task</c>,
/// <c>e.Wait(timeout)</c> → the same <c>bool</c> from <c>e.Task.WaitAsync(timeout)</c>, <c>e.Wait(token)</c> →
/// <c>await e.Task.WaitAsync(token)</c>, <c>e.Set()</c> → <c>e.TrySetResult()</c>, <c>e.IsSet</c> →
/// <c>e.Task.IsCompleted</c>, <c>e.Dispose()</c> → nothing to release. Only where every use can change with it: the
/// event is a <c>ManualResetEventSlim</c> or <c>ManualResetEvent</c> (an auto-reset event, a semaphore or a mutex is
/// not a one-shot signal), a readonly field or get-only auto-property that only its own type can reach (private, or in
/// a private nested type), created unset and alone, used only in those forms (never reset, never passed on), and each
/// wait can be awaited (asked of <paramref name="requireAwait"/>, which makes its method async).
/// </summary>
internal sealed class EventToCompletion(FixContext context, Func<SyntaxNode, Task<string?>> requireAwait, List<string> reshaped)
{
    private static readonly string[] Events = ["System.Threading.ManualResetEventSlim", "System.Threading.ManualResetEvent"];
    private readonly Dictionary<ISymbol, string?> _events = new(SymbolEqualityComparer.Default);

    /// <summary>Turns the event <paramref name="wait"/> waits on (all its uses) into a TaskCompletionSource; null when done, else why not.</summary>
    public async Task<string?> ConvertAsync(InvocationExpressionSyntax wait)
    {
        var model = await context.ModelAsync(wait.SyntaxTree).ConfigureAwait(false);
        var receiver = (wait.Expression as MemberAccessExpressionSyntax)?.Expression;
        if (receiver is null || model.GetSymbolInfo(receiver, context.CancellationToken).Symbol is not { Kind: SymbolKind.Field or SymbolKind.Property } symbol)
        {
            return $"the wait is on {receiver?.ToString() ?? wait.ToString()}, not on a field or property: tplab turns only an event its type owns into a TaskCompletionSource";
        }
        if (_events.TryGetValue(symbol, out var known))
        {
            return known;
        }
        var why = await ConvertSymbolAsync(symbol).ConfigureAwait(false);
        _events[symbol] = why;
        return why;
    }

    private async Task<string?> ConvertSymbolAsync(ISymbol symbol)
    {
        var name = $"{symbol.ContainingType.Name}.{symbol.Name}";
        var type = (symbol as IFieldSymbol)?.Type ?? ((IPropertySymbol)symbol).Type;
        if (!Events.Contains(type.ToDisplayString()))
        {
            return $"{name} is a {type.Name}, not a one-shot event (a ManualResetEvent(Slim)): a TaskCompletionSource would not count, reset or own as it does";
        }
        if (!Confined(symbol))
        {
            return $"the event {name} is {symbol.DeclaredAccessibility.ToString().ToLowerInvariant()}, so code tplab cannot see may wait on it or reset it: make it private first";
        }
        if (await Declaration(symbol).ConfigureAwait(false) is not { } declaration)
        {
            return $"the event {name} is not declared alone as a readonly field or get-only auto-property created unset (new(false))";
        }
        var uses = new List<(SyntaxNode Used, string Member)>();
        foreach (var location in (await SymbolFinder.FindReferencesAsync(symbol, context.Solution, context.CancellationToken).ConfigureAwait(false)).SelectMany(r => r.Locations).Select(l => l.Location))
        {
            var root = await location.SourceTree!.GetRootAsync(context.CancellationToken).ConfigureAwait(false);
            var used = root.FindNode(location.SourceSpan, getInnermostNodeForTie: true);
            if (used.Parent is MemberAccessExpressionSyntax ma && ma.Name == used)
            {
                used = ma;
            }
            var member = used.Parent is MemberAccessExpressionSyntax call && call.Expression == used ? call.Name.Identifier.ValueText : null;
            if (await UseForm(used, member).ConfigureAwait(false) is { } refused)
            {
                return $"the event {name} is used at {context.Where(used)} {refused}: a TaskCompletionSource would change what that use means";
            }
            uses.Add((used, member!));
        }
        // Every wait on the event awaits its task now: each must be able to become async.
        foreach (var (used, member) in uses.Where(u => u.Member is "Wait" or "WaitOne"))
        {
            if (await requireAwait(used.Parent!.Parent!).ConfigureAwait(false) is { } cannot)
            {
                return $"the event {name} is also waited on at {context.Where(used)}, where it cannot be awaited: {cannot}";
            }
        }
        await PlanAsync(declaration, uses).ConfigureAwait(false);
        reshaped.Add($"{name} → a TaskCompletionSource: Wait → await {symbol.Name}.Task, Set → TrySetResult ({uses.Count} use(s))");
        return null;
    }

    // Private, or declared in a type no code outside its containing type can name.
    private static bool Confined(ISymbol symbol)
    {
        for (var s = symbol; s is not null; s = s.ContainingType)
        {
            if (s.DeclaredAccessibility == Accessibility.Private)
            {
                return true;
            }
        }
        return false;
    }

    // The declarator whose initializer creates the event unset, or null when it is not one tplab can change alone.
    private async Task<SyntaxNode?> Declaration(ISymbol symbol)
    {
        if (symbol.DeclaringSyntaxReferences.Length != 1
            || symbol is IFieldSymbol { IsReadOnly: false } or IPropertySymbol { SetMethod: not null })
        {
            return null;
        }
        var node = await symbol.DeclaringSyntaxReferences[0].GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false);
        var (value, alone) = node switch
        {
            VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1, Parent: FieldDeclarationSyntax } } v => (v.Initializer?.Value, true),
            PropertyDeclarationSyntax { AccessorList.Accessors: [{ Body: null, ExpressionBody: null }] } p => (p.Initializer?.Value, true),
            _ => (null, false),
        };
        return alone && value is BaseObjectCreationExpressionSyntax { Initializer: null, ArgumentList.Arguments: var args }
            && (args.Count == 0 || (args.Count == 1 && args[0].Expression.IsKind(SyntaxKind.FalseLiteralExpression)))
            ? value : null;
    }

    // Null when the use has a TaskCompletionSource form, else what it is.
    private async Task<string?> UseForm(SyntaxNode used, string? member)
    {
        var call = used.Parent?.Parent as InvocationExpressionSyntax;
        var args = call?.ArgumentList.Arguments ?? default;
        switch (member)
        {
            case "IsSet" when call is null:
                return null;
            case "Set" or "Dispose" when call is not null && args.Count == 0 && call.Parent is ExpressionStatementSyntax or ArrowExpressionClauseSyntax:
                return null;
            case "Wait" or "WaitOne" when call is not null && args.Count <= 1:
                if (args.Count == 0)
                {
                    return null;
                }
                var model = await context.ModelAsync(call.SyntaxTree).ConfigureAwait(false);
                var arg = model.GetTypeInfo(args[0].Expression, context.CancellationToken).ConvertedType?.ToDisplayString();
                return arg is "int" or "System.TimeSpan" or "System.Threading.CancellationToken" ? null : $"as {call} (a {arg} argument)";
            default:
                return $"as {(SyntaxNode?)call ?? used.Parent}";
        }
    }

    private async Task PlanAsync(SyntaxNode creation, List<(SyntaxNode Used, string Member)> uses)
    {
        var declarationModel = await context.ModelAsync(creation.SyntaxTree).ConfigureAwait(false);
        var source = context.TypeName(declarationModel, creation, "TaskCompletionSource", "System.Threading.Tasks");
        var options = context.TypeName(declarationModel, creation, "TaskCreationOptions", "System.Threading.Tasks");
        var typeNode = creation.Ancestors().Select(a => a switch
        {
            VariableDeclarationSyntax d => d.Type,
            PropertyDeclarationSyntax p => p.Type,
            _ => null,
        }).First(t => t is not null)!;
        context.Changes.Replace(typeNode, n => ParseTypeName(source).WithTriviaFrom(n));
        context.Changes.Replace(creation, n => ParseExpression(n is ImplicitObjectCreationExpressionSyntax
            ? $"new({options}.RunContinuationsAsynchronously)" : $"new {source}({options}.RunContinuationsAsynchronously)").WithTriviaFrom(n));
        foreach (var (used, member) in uses)
        {
            var target = used is MemberAccessExpressionSyntax ma ? ma : used;
            var e = target.WithoutTrivia().ToString();
            var model = await context.ModelAsync(used.SyntaxTree).ConfigureAwait(false);
            var configure = context.Changes.ConfigureAwait(used.SyntaxTree);
            switch (member)
            {
                case "IsSet":
                    context.Changes.Replace(used.Parent!, n => ParseExpression($"{e}.Task.IsCompleted").WithTriviaFrom(n));
                    break;
                case "Set":
                    context.Changes.Replace(used.Parent!.Parent!, n => ParseExpression($"{e}.TrySetResult()").WithTriviaFrom(n));
                    break;
                case "Dispose":
                    // A TaskCompletionSource holds no handle: the Dispose has nothing left to release.
                    context.Changes.Replace(used.Parent!.Parent!, n => ParseExpression($"_ = {e}").WithTriviaFrom(n));
                    break;
                default:
                    var call = (InvocationExpressionSyntax)used.Parent!.Parent!;
                    context.Changes.Replace(call, n => AsyncSyntax.Await(ParseExpression(Awaited(model, call, e)), call, configure));
                    break;
            }
        }
    }

    // What the wait becomes before it is awaited: the task, the task bounded by the token, or the timed wait's bool.
    private string Awaited(SemanticModel model, InvocationExpressionSyntax call, string e)
    {
        if (call.ArgumentList.Arguments is not [var only])
        {
            return $"{e}.Task";
        }
        var type = model.GetTypeInfo(only.Expression, context.CancellationToken).ConvertedType?.ToDisplayString();
        if (type == "System.Threading.CancellationToken")
        {
            return $"{e}.Task.WaitAsync({only.Expression})";
        }
        var timeout = type == "int" ? $"{context.TypeName(model, call, "TimeSpan", "System")}.FromMilliseconds({only.Expression})" : only.Expression.ToString();
        var token = context.TypeName(model, call, "CancellationToken", "System.Threading");
        var continuation = context.TypeName(model, call, "TaskContinuationOptions", "System.Threading.Tasks");
        var scheduler = context.TypeName(model, call, "TaskScheduler", "System.Threading.Tasks");
        // Signalled in time: true; the timeout: false, as Wait(timeout) answers (no exception). Reading Exception
        // observes the TimeoutException, so a timed-out wait raises no UnobservedTaskException later.
        return $"{e}.Task.WaitAsync({timeout}).ContinueWith(static signalled => signalled.Exception is null, {token}.None, {continuation}.ExecuteSynchronously, {scheduler}.Default)";
    }
}
