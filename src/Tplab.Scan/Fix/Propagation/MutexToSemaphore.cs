using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A private, unnamed <c>Mutex</c> is a process-local lock that happens to be owned by a thread: it becomes a
/// <c>SemaphoreSlim(1, 1)</c> with every use — <c>m.WaitOne()</c> → <c>await m.WaitAsync()</c>,
/// <c>m.WaitOne(timeout)</c> → <c>await m.WaitAsync(timeout)</c> (the same bool, the same exception below -1 ms: a
/// timeout in ms through <c>TimeSpan.FromMilliseconds</c>),
/// <c>m.ReleaseMutex()</c> → <c>m.Release()</c>, <c>m.Dispose()</c> kept. Only where nothing depends on what a mutex
/// has and a semaphore has not: the field is private, declared alone and created unowned and unnamed (a name is shared
/// with other processes); every wait is followed by a <c>try</c> whose <c>finally</c> releases it (a timed wait: only
/// when it got it, as written), every release is one of those, and nothing else uses it (no <c>WaitHandle</c> use,
/// never passed on); no region takes it again (<see cref="SemaphoreGate"/>: a mutex is re-entrant for its owner, a
/// semaphore is not); and each method that waits can await (<paramref name="requireAwait"/>). With the release in a
/// <c>finally</c> no thread ends holding it, so the <c>AbandonedMutexException</c> a semaphore cannot throw never came.
/// </summary>
internal sealed class MutexToSemaphore(FixContext context, Func<SyntaxNode, Task<string?>> requireAwait, List<string> reshaped)
{
    private readonly Dictionary<ISymbol, string?> _mutexes = new(SymbolEqualityComparer.Default);

    /// <summary>The waits (<c>WaitOne</c> calls) this fix turned into awaited semaphore waits (their original nodes).</summary>
    public List<InvocationExpressionSyntax> ConvertedWaits { get; } = [];

    /// <summary>Turns the mutex <paramref name="wait"/> waits on (all its uses) into a SemaphoreSlim; null when done, else why not.</summary>
    public async Task<string?> ConvertAsync(InvocationExpressionSyntax wait)
    {
        var model = await context.ModelAsync(wait.SyntaxTree).ConfigureAwait(false);
        var receiver = (wait.Expression as MemberAccessExpressionSyntax)?.Expression;
        if (receiver is null || model.GetSymbolInfo(receiver, context.CancellationToken).Symbol is not IFieldSymbol field)
        {
            return $"the wait is on {receiver?.ToString() ?? wait.ToString()}, not on a field: tplab turns only a Mutex its type keeps private into a SemaphoreSlim";
        }
        if (_mutexes.TryGetValue(field, out var known))
        {
            return known;
        }
        _mutexes[field] = null; // asked again while its waits are made to await: decided below
        var why = await ConvertFieldAsync(field).ConfigureAwait(false);
        _mutexes[field] = why;
        return why;
    }

    private async Task<string?> ConvertFieldAsync(IFieldSymbol field)
    {
        var name = $"{field.ContainingType.Name}.{field.Name}";
        if (field.Type.ToDisplayString() != ThreadAffinity.Mutex)
        {
            return $"{name} is a {field.Type.Name}, not a Mutex";
        }
        if (field.DeclaredAccessibility != Accessibility.Private)
        {
            return $"the mutex {name} is not private to its type, so code tplab cannot see may wait on it or release it";
        }
        var declarator = field.DeclaringSyntaxReferences.Length == 1
            ? await field.DeclaringSyntaxReferences[0].GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false) as VariableDeclaratorSyntax : null;
        if (declarator is not { Parent: VariableDeclarationSyntax { Variables.Count: 1, Parent: FieldDeclarationSyntax declaration } })
        {
            return $"the mutex {name} is not declared alone (private readonly Mutex {field.Name} = new();)";
        }
        if (await CreationAsync(declarator, name).ConfigureAwait(false) is { } created)
        {
            return created;
        }
        var holds = new List<SemaphoreGate.Hold>();
        var releases = new List<InvocationExpressionSyntax>();
        var paired = new List<InvocationExpressionSyntax>();
        var disposals = 0;
        foreach (var used in await SemaphoreGate.UsesAsync(context, field).ConfigureAwait(false))
        {
            var call = used.Parent is MemberAccessExpressionSyntax access && access.Expression == used ? access.Parent as InvocationExpressionSyntax : null;
            var member = (used.Parent as MemberAccessExpressionSyntax)?.Name.Identifier.ValueText;
            switch (member)
            {
                case "WaitOne" when call is not null:
                    var model = await context.ModelAsync(call.SyntaxTree).ConfigureAwait(false);
                    if (MutexRegions.Pair(model, call, field, context.CancellationToken) is not { } pair)
                    {
                        return $"the mutex {name} is waited on at {context.Where(call)} as {call}, not in a form tplab rewrites: "
                            + "a WaitOne() statement, or WaitOne(timeout) as the test of an if, each followed by a try whose finally calls ReleaseMutex() on the path that got it";
                    }
                    holds.Add(new SemaphoreGate.Hold(call, pair.Region));
                    paired.Add(pair.Release);
                    break;
                case "ReleaseMutex" when call is { ArgumentList.Arguments.Count: 0 }:
                    releases.Add(call);
                    break;
                case "Dispose" when call is { ArgumentList.Arguments.Count: 0, Parent: ExpressionStatementSyntax or ArrowExpressionClauseSyntax }:
                    disposals++;
                    break;
                default:
                    // Passed on, returned, WaitHandle.WaitAll/WaitAny/SignalAndWait, SafeWaitHandle, Handle, Close, assigned.
                    return $"the mutex {name} is used at {context.Where(used)} as {(SyntaxNode?)call ?? used.Parent}: a SemaphoreSlim is no WaitHandle, so that use would change or not compile";
            }
        }
        if (releases.FirstOrDefault(r => !paired.Contains(r)) is { } stray)
        {
            return $"the mutex {name} is released at {context.Where(stray)} outside the finally that pairs a wait with it: a semaphore released by a path that did not take it lets a second caller in";
        }
        if (await SemaphoreGate.ReentryAsync(context, $"the mutex {name}", holds).ConfigureAwait(false) is { } reentry)
        {
            return reentry;
        }
        // Every method that waits on the mutex awaits the semaphore now: each must be able to become async.
        foreach (var hold in holds)
        {
            if (await requireAwait(hold.Wait).ConfigureAwait(false) is { } cannot)
            {
                return $"the mutex {name} is also waited on at {context.Where(hold.Wait)}, where it cannot be awaited: {cannot}";
            }
        }
        await SemaphoreGate.DeclareAsync(context, declaration).ConfigureAwait(false);
        foreach (var wait in holds.Select(h => (InvocationExpressionSyntax)h.Wait))
        {
            var model = await context.ModelAsync(wait.SyntaxTree).ConfigureAwait(false);
            var configure = context.Changes.ConfigureAwait(wait.SyntaxTree);
            var gate = ((MemberAccessExpressionSyntax)wait.Expression).Expression.WithoutTrivia();
            // WaitAsync(int) answers true for a timeout below -1 ms when the semaphore is free (.NET 10), where
            // WaitOne(int) throws: in milliseconds the timeout goes through TimeSpan, whose overload throws as WaitOne did.
            var milliseconds = wait.ArgumentList.Arguments is [var only] && model.GetTypeInfo(only.Expression, context.CancellationToken).ConvertedType?.SpecialType == SpecialType.System_Int32
                ? context.TypeName(model, wait, "TimeSpan", "System") : null;
            // Asked when the edit is applied: by then the method around it has the token --add-cancellation gives it.
            context.Changes.Replace(wait, n =>
            {
                var args = ((InvocationExpressionSyntax)n).ArgumentList.Arguments.Select(a => milliseconds is null ? a.ToString() : $"{milliseconds}.FromMilliseconds({a})").ToList();
                if (context.Token(model, wait) is { } token)
                {
                    args.Add(token);
                }
                return AsyncSyntax.Await(ParseExpression($"{gate}.WaitAsync({string.Join(", ", args)})"), wait, configure);
            });
            ConvertedWaits.Add(wait);
        }
        foreach (var release in paired)
        {
            context.Changes.Rename(((MemberAccessExpressionSyntax)release.Expression).Name, "Release");
        }
        reshaped.Add($"Mutex {name} → a SemaphoreSlim(1, 1): WaitOne → await {field.Name}.WaitAsync, ReleaseMutex → Release ({holds.Count} wait(s){(disposals > 0 ? ", Dispose kept" : "")})");
        return null;
    }

    // Why the mutex's creation is not one a SemaphoreSlim(1, 1) can stand for (named, owned, opened), else null.
    private async Task<string?> CreationAsync(VariableDeclaratorSyntax declarator, string name)
    {
        var value = declarator.Initializer?.Value;
        if (value is InvocationExpressionSyntax opened)
        {
            return $"the mutex {name} is opened by {opened.Expression} (a named system mutex other processes share): a SemaphoreSlim is private to this process";
        }
        if (value is not BaseObjectCreationExpressionSyntax { Initializer: null } creation)
        {
            return $"the mutex {name} is not created where it is declared (private readonly Mutex {declarator.Identifier.ValueText} = new();)";
        }
        var args = creation.ArgumentList?.Arguments ?? default;
        if (args.Count > 1)
        {
            return $"the mutex {name} is named ({args[1]}): a named mutex is shared with other processes, a SemaphoreSlim is private to this one";
        }
        if (args.Count == 1 && !args[0].Expression.IsKind(SyntaxKind.FalseLiteralExpression))
        {
            var model = await context.ModelAsync(declarator.SyntaxTree).ConfigureAwait(false);
            return model.GetConstantValue(args[0].Expression, context.CancellationToken) is { HasValue: true, Value: true }
                ? $"the mutex {name} is created owned (initiallyOwned: true) by the thread that builds its object: a SemaphoreSlim has no owner to start held by"
                : $"the mutex {name} is created with initiallyOwned {args[0].Expression}, not known to be false";
        }
        return null;
    }
}
