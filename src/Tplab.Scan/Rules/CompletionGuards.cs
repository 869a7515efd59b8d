using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// Whether a test the code makes proves a task complete where its <c>Result</c> is read: the read sits in the branch
/// the test opens (<c>if (t.IsCompletedSuccessfully) … t.Result</c>, <c>t.IsCompleted ? t.Result : await t</c>,
/// <c>t.IsCompleted &amp;&amp; t.Result &gt; 0</c>), or after an early exit of the other outcome
/// (<c>if (!t.IsCompletedSuccessfully) return await t; return t.Result;</c>). The test may be read through a local flag
/// assigned once (<c>var done = t.IsCompletedSuccessfully</c>) and may be <c>await Task.WhenAny(a, b) == a</c>. The proof
/// is void when the task variable is assigned again between the test and the read.
/// </summary>
internal static class CompletionGuards
{
    public static bool Holds(IOperation at, ISymbol task, IOperation body)
    {
        IOperation child = at;
        for (var p = at.Parent; p is not null; child = p, p = p.Parent)
        {
            switch (p)
            {
                case IConditionalOperation c when child == c.WhenTrue && Proves(c.Condition, task, true, body) && Unchanged(task, c.Condition, at, body):
                case IConditionalOperation f when child == f.WhenFalse && Proves(f.Condition, task, false, body) && Unchanged(task, f.Condition, at, body):
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } both when child == both.RightOperand && Proves(both.LeftOperand, task, true, body) && Unchanged(task, both.LeftOperand, at, body):
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr } either when child == either.RightOperand && Proves(either.LeftOperand, task, false, body) && Unchanged(task, either.LeftOperand, at, body):
                    return true;
                case IBlockOperation block when EarlyExitBefore(block, child, task, at, body):
                    return true;
            }
        }
        return false;
    }

    // if (!t.IsCompletedSuccessfully) { return await t; } before the statement holding the read, in the same block.
    private static bool EarlyExitBefore(IBlockOperation block, IOperation statement, ISymbol task, IOperation at, IOperation body)
    {
        var index = block.Operations.IndexOf(statement);
        for (var i = index - 1; i >= 0; i--)
        {
            if (block.Operations[i] is IConditionalOperation { WhenFalse: null } exit && AlwaysLeaves(exit.WhenTrue)
                && Proves(exit.Condition, task, false, body) && Unchanged(task, exit.Condition, at, body))
            {
                return true;
            }
        }
        return false;
    }

    private static bool AlwaysLeaves(IOperation? branch) => branch switch
    {
        IReturnOperation or IThrowOperation => true,
        IExpressionStatementOperation { Operation: IThrowOperation } => true,
        IBlockOperation b => b.Operations.Length > 0 && AlwaysLeaves(b.Operations[^1]),
        _ => false,
    };

    /// <summary>Whether <paramref name="condition"/> being true proves <paramref name="task"/> complete (a LINQ filter's test).</summary>
    public static bool ProvesComplete(IOperation condition, ISymbol task, IOperation body) => Proves(condition, task, true, body);

    /// <summary>Whether <paramref name="condition"/> being <paramref name="outcome"/> proves <paramref name="task"/> complete.</summary>
    private static bool Proves(IOperation? condition, ISymbol task, bool outcome, IOperation body, int depth = 0)
    {
        condition = Ops.Unwrap(condition);
        if (condition is null || depth > 6)
        {
            return false;
        }
        switch (condition)
        {
            case IUnaryOperation { OperatorKind: UnaryOperatorKind.Not } not:
                return Proves(not.Operand, task, !outcome, body, depth + 1);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } both:
                return outcome ? Proves(both.LeftOperand, task, true, body, depth + 1) || Proves(both.RightOperand, task, true, body, depth + 1)
                    : Proves(both.LeftOperand, task, false, body, depth + 1) && Proves(both.RightOperand, task, false, body, depth + 1);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr } either:
                return outcome ? Proves(either.LeftOperand, task, true, body, depth + 1) && Proves(either.RightOperand, task, true, body, depth + 1)
                    : Proves(either.LeftOperand, task, false, body, depth + 1) || Proves(either.RightOperand, task, false, body, depth + 1);
            case IPropertyReferenceOperation { Property.Name: "IsCompleted" or "IsCompletedSuccessfully" } p:
                return outcome && IsTask(p.Instance, task);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } eq:
                // t.Status == TaskStatus.RanToCompletion; await Task.WhenAny(a, b) == a; first == a.
                var equal = eq.OperatorKind == BinaryOperatorKind.Equals;
                return outcome == equal && (FinalStatus(eq.LeftOperand, eq.RightOperand, task) || FinalStatus(eq.RightOperand, eq.LeftOperand, task)
                    || WonRace(eq.LeftOperand, eq.RightOperand, task, body) || WonRace(eq.RightOperand, eq.LeftOperand, task, body));
            case ILocalReferenceOperation flag when flag.Local.Type.SpecialType == SpecialType.System_Boolean:
                // var done = t.IsCompletedSuccessfully; … if (done): one value, and it proves.
                var values = Ops.ValuesOf(flag.Local, body).ToList();
                return values.Count == 1 && Proves(values[0], task, outcome, body, depth + 1) && Unchanged(task, values[0], condition, body);
            default:
                return false;
        }
    }

    // t.Status compared with RanToCompletion, Faulted or Canceled: a final state.
    private static bool FinalStatus(IOperation side, IOperation other, ISymbol task) =>
        Ops.Unwrap(side) is IPropertyReferenceOperation { Property.Name: "Status" } status && IsTask(status.Instance, task)
        && Ops.Unwrap(other) is IFieldReferenceOperation { Field.Name: "RanToCompletion" or "Faulted" or "Canceled" } state
        && Ops.NameOf(state.Field.ContainingType) == "System.Threading.Tasks.TaskStatus";

    // (await Task.WhenAny(a, b)) == a, or first == a where first = await Task.WhenAny(a, b).
    private static bool WonRace(IOperation winner, IOperation candidate, ISymbol task, IOperation body)
    {
        if (!IsTask(candidate, task))
        {
            return false;
        }
        var value = Ops.Unwrap(winner);
        if (value is ILocalReferenceOperation local && Ops.ValuesOf(local.Local, body).ToList() is [var only])
        {
            value = Ops.Unwrap(only);
        }
        return value is IAwaitOperation awaited && IsWhenAny(awaited.Operation);
    }

    /// <summary><c>Task.WhenAny(...)</c>, awaited directly or through <c>ConfigureAwait</c>.</summary>
    public static bool IsWhenAny(IOperation? op)
    {
        var o = Ops.Unwrap(op);
        while (o is IInvocationOperation { TargetMethod.Name: "ConfigureAwait" } c)
        {
            o = Ops.Unwrap(c.Instance);
        }
        return o is IInvocationOperation { TargetMethod.Name: "WhenAny" } i && Ops.NameOf(i.TargetMethod.ContainingType) == "System.Threading.Tasks.Task";
    }

    private static bool IsTask(IOperation? op, ISymbol task) => SymbolEqualityComparer.Default.Equals(Ops.Referenced(op), task);

    // No assignment to the task's variable between the test and the read: otherwise the test was about another task.
    private static bool Unchanged(ISymbol task, IOperation test, IOperation at, IOperation body)
    {
        var from = test.Syntax.SpanStart;
        var to = at.Syntax.SpanStart;
        return !body.DescendantsAndSelf().Any(o => o.Syntax.SpanStart > from && o.Syntax.SpanStart < to
            && o is IAssignmentOperation a
            && (IsTask(a.Target, task) || (a.Target is ITupleOperation tuple && tuple.Elements.Any(e => IsTask(e, task)))));
    }
}
