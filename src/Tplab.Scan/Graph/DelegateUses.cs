using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>What becomes of a lambda or method group where the code writes it.</summary>
internal enum DelegateUse
{
    /// <summary>Handed to code that may run it before returning (LINQ to objects, a helper, a local Func): followed.</summary>
    MayRunHere,

    /// <summary>Converted to an <c>Expression&lt;…&gt;</c>: data a provider translates (SQL), never run on this thread.</summary>
    ExpressionTree,

    /// <summary>Subscribed to an event (<c>+=</c>): runs when the event fires, elsewhere.</summary>
    Subscribed,

    /// <summary>Stored in a field, a property or an object's initializer: runs later, elsewhere.</summary>
    Stored,

    /// <summary>Handed to a job scheduler (Hangfire, Quartz): runs later, on a worker: a root of its own, not this request's work.</summary>
    Scheduled,
}

/// <summary>
/// Decides whether a lambda or method group executes as part of the call that holds it. Only <see cref="DelegateUse.MayRunHere"/>
/// is followed by the call graph; the rest are data, or run later somewhere else.
/// </summary>
internal static class DelegateUses
{
    // Job schedulers: what they are handed runs on a worker later (and is usually an Expression<…> they serialise).
    private static readonly string[] Schedulers = ["Hangfire.", "Quartz.", "Coravel."];

    /// <summary>How <paramref name="target"/> (an anonymous function or a method reference) is used where it is written.</summary>
    public static DelegateUse Of(IOperation target)
    {
        var op = target;
        // Up through the conversion to the delegate (or expression) type.
        while (op.Parent is IDelegateCreationOperation or IConversionOperation or IParenthesizedOperation)
        {
            op = op.Parent;
            if (IsExpressionType(op.Type))
            {
                return DelegateUse.ExpressionTree;
            }
        }
        if (IsExpressionType(op.Type))
        {
            return DelegateUse.ExpressionTree;
        }
        switch (op.Parent)
        {
            case IEventAssignmentOperation:
                return DelegateUse.Subscribed;
            case ISimpleAssignmentOperation assignment when assignment.Value == op && Stores(assignment.Target):
                return DelegateUse.Stored;
            case ICompoundAssignmentOperation assignment when assignment.Value == op && Stores(assignment.Target):
                // handler += OnChange on a delegate-typed field: a subscription by hand.
                return DelegateUse.Subscribed;
            case IArgumentOperation { Parent: IInvocationOperation call } argument:
                if (argument.Parameter is { } p && IsExpressionType(p.Type))
                {
                    return DelegateUse.ExpressionTree;
                }
                if (IsScheduler(call.TargetMethod))
                {
                    return DelegateUse.Scheduled;
                }
                break;
        }
        return DelegateUse.MayRunHere;
    }

    /// <summary>
    /// Whether a source method runs (or may run) the delegate it receives as <paramref name="parameter"/>: it invokes it,
    /// or hands it on to other code. One that only stores it (a field, a property, a list) or ignores it does not run it now.
    /// </summary>
    public static bool RunsParameter(SourceIndex index, IMethodSymbol callee, IParameterSymbol parameter)
    {
        if (index.NodeFor(callee) is not { } node)
        {
            return true;
        }
        FactDependencies.File(node.Syntax.SyntaxTree);
        return (bool)index.Memo.GetOrAdd((node, "runs-parameter-" + parameter.Ordinal), _ => RunsParameter(index, node, parameter))!;
    }

    private static bool RunsParameter(SourceIndex index, CodeNode node, IParameterSymbol parameter)
    {
        if (index.Model(node.Syntax.SyntaxTree).GetOperation(node.Syntax) is not { } body)
        {
            return true;
        }
        var references = body.DescendantsAndSelf().OfType<IParameterReferenceOperation>()
            .Where(r => SymbolEqualityComparer.Default.Equals(r.Parameter.OriginalDefinition, parameter.OriginalDefinition)).ToList();
        foreach (var reference in references)
        {
            var use = (IOperation)reference;
            while (use.Parent is IConversionOperation or IParenthesizedOperation or IDelegateCreationOperation)
            {
                use = use.Parent;
            }
            var stored = use.Parent switch
            {
                ISimpleAssignmentOperation a when a.Value == use => Stores(a.Target),
                IEventAssignmentOperation => true,
                IArgumentOperation { Parent: IInvocationOperation { TargetMethod.Name: "Add" or "Enqueue" or "Push" or "TryAdd" or "Insert" } } => true,
                IArgumentOperation { Parent: IInvocationOperation call } => IsScheduler(call.TargetMethod),
                IVariableInitializerOperation => false,
                _ => false,
            };
            if (!stored)
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Whether <paramref name="type"/> is <c>Expression&lt;T&gt;</c> or another LINQ expression type (a lambda converted to it is data).</summary>
    public static bool IsExpressionType(ITypeSymbol? type) =>
        type is not null && (Ops.IsOrDerives(type, "System.Linq.Expressions.Expression`1") || Ops.IsOrDerives(type, "System.Linq.Expressions.LambdaExpression"));

    /// <summary>A method of a job scheduler (Hangfire's BackgroundJob.Enqueue, RecurringJob.AddOrUpdate, …).</summary>
    public static bool IsScheduler(IMethodSymbol method)
    {
        var type = method.ContainingType is { } t ? SymbolNames.MetadataName(t) : "";
        return Schedulers.Any(s => type.StartsWith(s, StringComparison.Ordinal));
    }

    // A field or a property (an object initializer's member too): the delegate outlives this call.
    private static bool Stores(IOperation target) => Ops.Unwrap(target) is IFieldReferenceOperation or IPropertyReferenceOperation or IArrayElementReferenceOperation;
}
