using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// Walks one node's body (its IOperation tree) and records what it does: calls into the solution's code (resolved
/// to every implementation of an interface or virtual call), lambdas handed on (Task.Run bodies, continuations,
/// callbacks), blocking library calls, and locks. Nested lambdas and local functions are nodes of their own.
/// Tracks whether each call sits in a branch, and which lock is held around it.
/// </summary>
internal sealed class BodyWalker : OperationWalker
{
    private readonly BlockingRules _rules;
    private readonly CodeNode _node;
    private readonly IOperation _body;
    private readonly Func<int> _nextLockId;
    private readonly WalkScope _scope = new();
    private readonly MonitorRegions _monitors = new();
    private readonly FactRecorder _record;

    private BodyWalker(SourceIndex index, BlockingRules rules, CodeNode node, IOperation body, Func<int> nextLockId)
    {
        _rules = rules;
        _node = node;
        _body = body;
        _nextLockId = nextLockId;
        _record = new FactRecorder(index, rules, node, body, _scope);
    }

    private bool Conditional => _scope.Conditional;

    /// <summary>What <paramref name="node"/> does.</summary>
    public static NodeFacts Walk(SourceIndex index, BlockingRules rules, CodeNode node, Func<int> nextLockId)
    {
        var model = index.Model(node.Syntax.SyntaxTree);
        var op = model.GetOperation(node.Syntax);
        if (op is null)
        {
            return NodeFacts.Empty;
        }
        var root = op;
        while (root.Parent is not null)
        {
            root = root.Parent;
        }
        var walker = new BodyWalker(index, rules, node, root, nextLockId);
        switch (op)
        {
            case IAnonymousFunctionOperation lambda:
                walker.Visit(lambda.Body);
                break;
            case ILocalFunctionOperation local:
                walker.Visit(local.Body ?? local.IgnoredBody);
                break;
            default:
                walker.Visit(op);
                break;
        }
        walker._monitors.Apply(walker._record.Facts);
        return walker._record.Facts;
    }

    // ---- branches: a call under one of these runs only on some requests ----

    public override void VisitConditional(IConditionalOperation operation)
    {
        Visit(operation.Condition);
        // "id <= 0 ? null : Load(id)", "if (bad) throw ...; else Work()": the side that only bails out is the
        // exception, the other side is the path requests take.
        var trueExits = Branches.IsBailOut(operation.WhenTrue);
        var falseExits = operation.WhenFalse is not null && Branches.IsBailOut(operation.WhenFalse);
        if (operation.WhenFalse is not null && trueExits != falseExits)
        {
            Visit(operation.WhenTrue);
            Visit(operation.WhenFalse);
            return;
        }
        Branch(() =>
        {
            Visit(operation.WhenTrue);
            Visit(operation.WhenFalse);
        });
    }

    public override void VisitBlock(IBlockOperation operation)
    {
        // "if (cache.TryGetValue(...)) { return hit; } ... Load()": after a fast path that returns a value, the rest
        // of the block runs only when it was not taken. A guard that bails out (return null, throw) does not count.
        var after = 0;
        try
        {
            foreach (var child in operation.Operations)
            {
                Visit(child);
                if (child is IConditionalOperation { WhenFalse: null } fastPath && Branches.ReturnsAValue(fastPath.WhenTrue))
                {
                    after++;
                    _scope.Enter();
                }
            }
        }
        finally
        {
            _scope.Leave(after);
        }
    }

    public override void VisitSwitch(ISwitchOperation operation)
    {
        Visit(operation.Value);
        Branch(() =>
        {
            foreach (var section in operation.Cases)
            {
                Visit(section);
            }
        });
    }

    public override void VisitSwitchExpression(ISwitchExpressionOperation operation)
    {
        Visit(operation.Value);
        Branch(() =>
        {
            foreach (var arm in operation.Arms)
            {
                Visit(arm);
            }
        });
    }

    public override void VisitBinaryOperator(IBinaryOperation operation)
    {
        if (operation.OperatorKind is BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr)
        {
            Visit(operation.LeftOperand);
            Branch(() => Visit(operation.RightOperand));
            return;
        }
        base.VisitBinaryOperator(operation);
    }

    public override void VisitCoalesce(ICoalesceOperation operation)
    {
        Visit(operation.Value);
        Branch(() => Visit(operation.WhenNull));
    }

    public override void VisitCoalesceAssignment(ICoalesceAssignmentOperation operation)
    {
        Visit(operation.Target);
        Branch(() => Visit(operation.Value));
    }

    public override void VisitConditionalAccess(IConditionalAccessOperation operation)
    {
        Visit(operation.Operation);
        Branch(() => Visit(operation.WhenNotNull));
    }

    public override void VisitCatchClause(ICatchClauseOperation operation) => Branch(() => base.VisitCatchClause(operation));

    private void Branch(Action visit) => _scope.Branch(visit);

    // ---- calls ----

    public override void VisitInvocation(IInvocationOperation operation)
    {
        var method = operation.TargetMethod;
        if (IsMonitor(method, "Enter", "TryEnter") && operation.Arguments.Length > 0)
        {
            var id = _record.AddLock(operation.Arguments[0].Value, operation.Syntax.GetLocation(), _nextLockId, out var key);
            _monitors.Enter(id, key, operation.Syntax.Span.End);
        }
        else if (IsMonitor(method, "Exit") && operation.Arguments.Length > 0)
        {
            _monitors.Exit(LockKeys.Of(operation.Arguments[0].Value, _body, "").Key, operation.Syntax.SpanStart);
        }
        _record.OnCall(operation, method, Ops.Receiver(operation), operation.IsVirtual);
        Visit(operation.Instance);
        VisitArguments(operation, operation.Arguments, method);
    }

    public override void VisitObjectCreation(IObjectCreationOperation operation)
    {
        if (operation.Constructor is { } ctor)
        {
            _record.OnCall(operation, ctor, null, isVirtual: false);
            VisitArguments(operation, operation.Arguments, ctor);
        }
        Visit(operation.Initializer);
    }

    public override void VisitPropertyReference(IPropertyReferenceOperation operation)
    {
        var property = operation.Property;
        var written = operation.Parent is IAssignmentOperation assignment && assignment.Target == operation;
        var compound = operation.Parent is ICompoundAssignmentOperation or IIncrementOrDecrementOperation;
        var accessor = written && !compound ? property.SetMethod : property.GetMethod;
        if (accessor is not null)
        {
            var isVirtual = operation.Instance is not IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } || property.IsVirtual || property.IsAbstract;
            _record.OnCall(operation, accessor, operation.Instance, isVirtual && operation.Instance is not null);
        }
        if (compound && property.SetMethod is { } setter)
        {
            _record.OnCall(operation, setter, operation.Instance, operation.Instance is not null);
        }
        Visit(operation.Instance);
        foreach (var argument in operation.Arguments)
        {
            Visit(argument);
        }
    }

    // Arguments are walked; a lambda or method group among them is an edge of the role the call gives it.
    private void VisitArguments(IOperation call, IEnumerable<IArgumentOperation> arguments, IMethodSymbol method) =>
        _record.OnArguments(call, arguments, method, Visit);

    private static bool IsMonitor(IMethodSymbol method, params string[] names) =>
        names.Contains(method.Name) && method.ContainingType is { } t && SymbolNames.MetadataName(t) == "System.Threading.Monitor";

    // ---- nested code: nodes of their own ----

    public override void VisitLocalFunction(ILocalFunctionOperation operation)
    {
        // Its body is walked when it is called.
    }

    public override void VisitAnonymousFunction(IAnonymousFunctionOperation operation)
    {
        // A lambda passed somewhere this walker did not recognise: assume it runs, on this thread, unless it is an
        // expression tree (data), subscribed, stored or scheduled (it runs later, elsewhere).
        if (DelegateUses.Of(operation) == DelegateUse.MayRunHere)
        {
            _record.AddDelegateEdge(operation, EdgeKind.Callback, Conditional, awaited: false);
        }
    }

    public override void VisitMethodReference(IMethodReferenceOperation operation)
    {
        if (DelegateUses.Of(operation) == DelegateUse.MayRunHere)
        {
            _record.AddDelegateEdge(operation, EdgeKind.Callback, Conditional, awaited: false);
        }
        base.VisitMethodReference(operation);
    }

    // ---- locks ----

    public override void VisitLock(ILockOperation operation)
    {
        Visit(operation.LockedValue);
        // A constructor's lock guards an object no other thread can see yet: nobody contends for it.
        if (_node.Symbol.MethodKind is MethodKind.Constructor or MethodKind.StaticConstructor)
        {
            Visit(operation.Body);
            return;
        }
        var id = _record.AddLock(operation.LockedValue, operation.Syntax.GetLocation(), _nextLockId, out _);
        _scope.Holding(id, () => Visit(operation.Body));
    }

    // ---- what source could not resolve ----

    public override void VisitInvalid(IInvalidOperation operation)
    {
        // A call into a type a missing package would declare: unknown, never a finding (what it contains is still read).
        _record.Facts.Unknown.Add(operation.Syntax.GetLocation());
        base.VisitInvalid(operation);
    }

    // ---- sync enumeration of a query ----

    public override void VisitForEachLoop(IForEachLoopOperation operation)
    {
        if (Ops.Unwrap(operation.Collection) is not IInvalidOperation && _rules.ForEach(operation, _body) is { } verdict
            && !FactRecorder.HasCompileErrors(operation.Collection))
        {
            _record.AddBlocking(verdict, operation.Collection.Syntax.GetLocation());
        }
        base.VisitForEachLoop(operation);
    }
}
