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
internal sealed partial class BodyWalker : OperationWalker
{
    private readonly SourceIndex _index;
    private readonly BlockingRules _rules;
    private readonly CodeNode _node;
    private readonly IOperation _body;
    private readonly Func<int> _nextLockId;
    private readonly Stack<int> _locks = new();
    private readonly List<(int Id, string Key, int Start)> _monitors = [];
    private readonly List<(string Key, int Start)> _monitorExits = [];
    private int _conditional;

    private BodyWalker(SourceIndex index, BlockingRules rules, CodeNode node, IOperation body, Func<int> nextLockId)
    {
        _index = index;
        _rules = rules;
        _node = node;
        _body = body;
        _nextLockId = nextLockId;
    }

    public NodeFacts Facts { get; } = new();

    private bool Conditional => _conditional > 0;

    private int? Lock => _locks.Count > 0 ? _locks.Peek() : null;

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
        walker.AssignMonitorRegions();
        return walker.Facts;
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
                    _conditional++;
                }
            }
        }
        finally
        {
            _conditional -= after;
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

    private void Branch(Action visit)
    {
        _conditional++;
        try
        {
            visit();
        }
        finally
        {
            _conditional--;
        }
    }

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
            AddDelegateEdge(operation, EdgeKind.Callback, Conditional, awaited: false);
        }
    }

    public override void VisitMethodReference(IMethodReferenceOperation operation)
    {
        if (DelegateUses.Of(operation) == DelegateUse.MayRunHere)
        {
            AddDelegateEdge(operation, EdgeKind.Callback, Conditional, awaited: false);
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
        var (key, description) = LockKeys.Of(operation.LockedValue, _body, _node.Syntax.SpanStart.ToString(System.Globalization.CultureInfo.InvariantCulture) + _node.RelativePath);
        var id = _nextLockId();
        Facts.Locks.Add(new LockSite(id, key, description, operation.Syntax.GetLocation(), Conditional));
        _locks.Push(id);
        try
        {
            Visit(operation.Body);
        }
        finally
        {
            _locks.Pop();
        }
    }

    // ---- what source could not resolve ----

    public override void VisitInvalid(IInvalidOperation operation)
    {
        // A call into a type a missing package would declare: unknown, never a finding (what it contains is still read).
        Facts.Unknown.Add(operation.Syntax.GetLocation());
        base.VisitInvalid(operation);
    }

    // ---- sync enumeration of a query ----

    public override void VisitForEachLoop(IForEachLoopOperation operation)
    {
        if (Ops.Unwrap(operation.Collection) is not IInvalidOperation && _rules.ForEach(operation, _body) is { } verdict
            && operation.SemanticModel?.GetDiagnostics(operation.Collection.Syntax.Span).Any(d => d.Severity == DiagnosticSeverity.Error) != true)
        {
            AddBlocking(verdict, operation.Collection.Syntax.GetLocation());
        }
        base.VisitForEachLoop(operation);
    }
}
