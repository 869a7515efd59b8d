using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// Proves that a task is complete where <c>.Result</c>, <c>.Wait()</c> or <c>GetResult()</c> reads it, so that reading
/// it blocks nothing: a task made complete (<c>Task.FromResult</c>, <c>Task.CompletedTask</c>), one awaited earlier in the
/// same body (alone or through <c>Task.WhenAll</c>, also as an element of an awaited collection), the task an awaited
/// <c>Task.WhenAny</c> returns, one read where a test proves it complete (<see cref="CompletionGuards"/>), a
/// <c>ContinueWith</c> continuation's antecedent, and one an argument makes complete (<see cref="CompleteByArgument"/>).
/// </summary>
internal static class CompletedTasks
{
    public static bool IsProven(IOperation? task, IOperation at, IOperation body)
    {
        var op = Ops.Unwrap(task);
        if (op is null)
        {
            return false;
        }
        if (MadeComplete(op))
        {
            return true;
        }
        // tasks[0].Result after await Task.WhenAll(tasks): the collection was awaited.
        var collection = op switch
        {
            IArrayElementReferenceOperation e => Ops.Referenced(e.ArrayReference),
            IPropertyReferenceOperation { Property.IsIndexer: true } p => Ops.Referenced(p.Instance),
            // foreach (var pair in tasks) pair.Value.Result, after await Task.WhenAll(tasks.Values): a dictionary of tasks.
            IPropertyReferenceOperation { Property.Name: "Value" } pair when Ops.Unwrap(pair.Instance) is ILocalReferenceOperation l => ForEachSource(l.Local, at),
            _ => null,
        };
        var symbol = Ops.Referenced(op);
        if (symbol is ILocalSymbol local && Ops.ValuesOf(local, body).ToList() is { Count: > 0 } values && values.All(v => MadeComplete(Ops.Unwrap(v)!)))
        {
            return true;
        }
        if (symbol is IParameterSymbol parameter && IsContinuationAntecedent(parameter, at))
        {
            return true;
        }
        // t.Result inside tasks.Select(t => t.Result) or foreach (var t in tasks), after the collection was awaited.
        collection ??= symbol switch
        {
            IParameterSymbol p => CompletedFilters.Source(p, at),
            ILocalSymbol l => ForEachSource(l, at),
            _ => null,
        };
        var position = at.Syntax.SpanStart;
        var awaited = body.DescendantsAndSelf().OfType<IAwaitOperation>().Where(a => a.Syntax.SpanStart < position).Select(a => Ops.Unwrap(a.Operation));
        foreach (var operand in awaited)
        {
            if (Mentions(operand, symbol) || Mentions(operand, collection))
            {
                return true;
            }
        }
        // Task.WaitAll(a, b) or t.Wait() blocks (and is reported), but after it the task's Result does not block again.
        if (body.DescendantsAndSelf().OfType<IInvocationOperation>().Any(i => i.Syntax.SpanStart < position
            && Ops.NameOf(i.TargetMethod.ContainingType) == "System.Threading.Tasks.Task"
            && ((i.TargetMethod.Name == "WaitAll" && (Mentions(i, symbol) || Mentions(i, collection)))
                || (i.TargetMethod.Name == "Wait" && symbol is not null && SymbolEqualityComparer.Default.Equals(Ops.Referenced(i.Instance), symbol)))))
        {
            return true;
        }
        // tasks.Where(t => t.Status == TaskStatus.RanToCompletion).Select(t => t.Result): the filter proved it.
        if (symbol is IParameterSymbol filtered && CompletedFilters.Holds(filtered, at, body))
        {
            return true;
        }
        return symbol is not null && CompletionGuards.Holds(at, symbol, body);
    }

    private static bool MadeComplete(IOperation op) => op switch
    {
        IInvocationOperation i => (i.TargetMethod.Name is "FromResult" or "FromCanceled" or "FromException"
            && Ops.NameOf(i.TargetMethod.ContainingType) is "System.Threading.Tasks.Task" or "System.Threading.Tasks.ValueTask")
            || CompleteByArgument.Holds(i),
        IPropertyReferenceOperation p => p.Property.Name == "CompletedTask"
            && Ops.NameOf(p.Property.ContainingType) is "System.Threading.Tasks.Task" or "System.Threading.Tasks.ValueTask",
        IObjectCreationOperation c => Ops.NameOf(c.Type) == "System.Threading.Tasks.ValueTask`1" && c.Arguments.Length == 1
            && !Ops.IsOrDerives(c.Arguments[0].Value.Type, "System.Threading.Tasks.Task"),
        IDefaultValueOperation d => Ops.NameOf(d.Type) is "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask`1",
        // (await Task.WhenAny(a, b)).Result, var first = await Task.WhenAny(a, b); first.Result: the task that finished.
        IAwaitOperation a => CompletionGuards.IsWhenAny(a.Operation),
        _ => false,
    };

    // An operand that names the symbol: "await t", "await Task.WhenAll(a, t)", "await Task.WhenAll(tasks)", "await t.ConfigureAwait(false)".
    private static bool Mentions(IOperation? operand, ISymbol? symbol) =>
        symbol is not null && operand is not null
        && operand.DescendantsAndSelf().Any(o => SymbolEqualityComparer.Default.Equals(Ops.Referenced(o), symbol)
            && !IsInsideWhenAny(o, operand));

    // await Task.WhenAny(a, b) completes one of them only.
    private static bool IsInsideWhenAny(IOperation op, IOperation root)
    {
        for (var p = op.Parent; p is not null && p != root.Parent; p = p.Parent)
        {
            if (p is IInvocationOperation { TargetMethod.Name: "WhenAny" })
            {
                return true;
            }
        }
        return false;
    }

    private static bool IsContinuationAntecedent(IParameterSymbol parameter, IOperation at)
    {
        var lambda = EnclosingLambda(at, parameter);
        return lambda?.Parent is IDelegateCreationOperation { Parent: IArgumentOperation { Parent: IInvocationOperation { TargetMethod.Name: "ContinueWith" } } }
            && parameter.Ordinal == 0;
    }

    private static ISymbol? ForEachSource(ILocalSymbol local, IOperation at)
    {
        for (var p = at.Parent; p is not null; p = p.Parent)
        {
            if (p is IForEachLoopOperation loop && loop.Locals.Contains(local, SymbolEqualityComparer.Default))
            {
                return Ops.Referenced(loop.Collection);
            }
        }
        return null;
    }

    private static IAnonymousFunctionOperation? EnclosingLambda(IOperation at, IParameterSymbol parameter)
    {
        for (var p = at.Parent; p is not null; p = p.Parent)
        {
            if (p is IAnonymousFunctionOperation f && f.Symbol.Parameters.Contains(parameter, SymbolEqualityComparer.Default))
            {
                return f;
            }
        }
        return null;
    }
}
