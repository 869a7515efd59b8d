using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// A task's <c>Result</c> read in a lambda of a LINQ chain over tasks: complete when an earlier filter of the same
/// chain keeps only finished tasks (<c>tasks.Where(t =&gt; t.Status == TaskStatus.RanToCompletion).Select(t =&gt;
/// t.Result)</c>, also through a local holding the filtered sequence), and the chain's source when the filters and
/// orderings before the read keep its elements (<c>await Task.WhenAll(tasks)</c> then <c>tasks.Where(…).Select(t =&gt;
/// t.Result)</c>).
/// </summary>
internal static class CompletedFilters
{
    private const int MaxChain = 12;

    /// <summary>Whether the lambda declaring <paramref name="parameter"/> runs over elements a filter before it proved complete.</summary>
    public static bool Holds(IParameterSymbol parameter, IOperation at, IOperation body) =>
        ChainCall(parameter, at) is { } call && Filtered(Ops.Receiver(call), body, 0);

    /// <summary>The variable the chain the lambda is an argument of starts from (<c>tasks</c> in <c>tasks.Where(…).Select(t =&gt; t.Result)</c>).</summary>
    public static ISymbol? Source(IParameterSymbol parameter, IOperation at)
    {
        var source = ChainCall(parameter, at) is { } call ? Ops.Receiver(call) : null;
        for (var i = 0; i < MaxChain && Ops.Unwrap(source) is IInvocationOperation link && KeepsElements(link); i++)
        {
            source = Ops.Receiver(link);
        }
        return Ops.Referenced(source);
    }

    // The LINQ call whose lambda argument declares the parameter.
    private static IInvocationOperation? ChainCall(IParameterSymbol parameter, IOperation at)
    {
        for (var p = at.Parent; p is not null; p = p.Parent)
        {
            if (p is IAnonymousFunctionOperation f && f.Symbol.Parameters.Contains(parameter, SymbolEqualityComparer.Default))
            {
                return f.Parent is IDelegateCreationOperation { Parent: IArgumentOperation { Parent: IInvocationOperation call } } ? call : null;
            }
        }
        return null;
    }

    private static bool Filtered(IOperation? source, IOperation body, int depth)
    {
        if (depth > MaxChain)
        {
            return false;
        }
        switch (Ops.Unwrap(source))
        {
            case IInvocationOperation { TargetMethod.Name: "Where" } where when FilterProves(where):
                return true;
            case IInvocationOperation link when KeepsElements(link):
                return Filtered(Ops.Receiver(link), body, depth + 1);
            case ILocalReferenceOperation local:
                var values = Ops.ValuesOf(local.Local, body).ToList();
                return values.Count > 0 && values.All(v => Filtered(v, body, depth + 1));
            default:
                return false;
        }
    }

    // Where(t => t.Status == TaskStatus.RanToCompletion), Where(t => t.IsCompletedSuccessfully): its lambda's result
    // being true proves its parameter complete.
    private static bool FilterProves(IInvocationOperation where)
    {
        var lambda = where.Arguments.Select(a => Ops.Unwrap(a.Value)).OfType<IDelegateCreationOperation>()
            .Select(d => d.Target).OfType<IAnonymousFunctionOperation>().FirstOrDefault();
        if (lambda is not { Symbol.Parameters.Length: 1 } || lambda.Body.Operations is not [IReturnOperation { ReturnedValue: { } test }])
        {
            return false;
        }
        return CompletionGuards.ProvesComplete(test, lambda.Symbol.Parameters[0], lambda.Body);
    }

    // LINQ operators whose output holds only elements of their input, as they were: the proof carries through them.
    private static bool KeepsElements(IInvocationOperation link) =>
        link.TargetMethod.IsExtensionMethod
        && Ops.NameOf(link.TargetMethod.ContainingType) is "System.Linq.Enumerable" or "System.Linq.ParallelEnumerable"
        && link.TargetMethod.Name is "Where" or "OrderBy" or "OrderByDescending" or "ThenBy" or "ThenByDescending" or "Take" or "Skip"
            or "TakeWhile" or "SkipWhile" or "Distinct" or "DistinctBy" or "Reverse" or "ToList" or "ToArray" or "AsEnumerable"
            or "Order" or "OrderDescending" or "TakeLast" or "SkipLast";
}
