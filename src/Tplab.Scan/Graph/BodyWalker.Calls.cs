using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

internal sealed partial class BodyWalker
{
    public override void VisitInvocation(IInvocationOperation operation)
    {
        var method = operation.TargetMethod;
        if (IsMonitor(method, "Enter", "TryEnter") && operation.Arguments.Length > 0)
        {
            var (key, description) = LockKeys.Of(operation.Arguments[0].Value, _body, _node.Syntax.SpanStart.ToString(System.Globalization.CultureInfo.InvariantCulture) + _node.RelativePath);
            var id = _nextLockId();
            Facts.Locks.Add(new LockSite(id, key, description, operation.Syntax.GetLocation(), Conditional));
            _monitors.Add((id, key, operation.Syntax.Span.End));
        }
        else if (IsMonitor(method, "Exit") && operation.Arguments.Length > 0)
        {
            _monitorExits.Add((LockKeys.Of(operation.Arguments[0].Value, _body, "").Key, operation.Syntax.SpanStart));
        }
        OnCall(operation, method, Ops.Receiver(operation), operation.IsVirtual);
        Visit(operation.Instance);
        VisitArguments(operation, operation.Arguments, method);
    }

    public override void VisitObjectCreation(IObjectCreationOperation operation)
    {
        if (operation.Constructor is { } ctor)
        {
            OnCall(operation, ctor, null, isVirtual: false);
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
            OnCall(operation, accessor, operation.Instance, isVirtual && operation.Instance is not null);
        }
        if (compound && property.SetMethod is { } setter)
        {
            OnCall(operation, setter, operation.Instance, operation.Instance is not null);
        }
        Visit(operation.Instance);
        foreach (var argument in operation.Arguments)
        {
            Visit(argument);
        }
    }

    /// <summary>A call of <paramref name="method"/>: an edge into the solution's code, or a library call the rules judge.</summary>
    private void OnCall(IOperation operation, IMethodSymbol method, IOperation? receiver, bool isVirtual)
    {
        var definition = SymbolNames.Definition(method);
        var site = Site(operation);
        if (Unresolved(method, receiver))
        {
            Facts.Unknown.Add(site);
            return;
        }
        if (_rules.Configured(definition) is { } configured)
        {
            AddBlocking(configured, site);
            return;
        }
        var dispatch = Dispatch.Resolve(_index, definition, receiver, isVirtual);
        var targets = dispatch.Nodes;
        if (targets.Count == 0 && operation is IInvocationOperation sent && MediatorHandlers(sent) is { Count: > 0 } handlers)
        {
            foreach (var handler in handlers)
            {
                Facts.Edges.Add(new Edge(handler, site, EdgeKind.Implementation, Conditional, handlers.Count, $"{definition.ContainingType?.Name}.{definition.Name}") { LockId = Lock, Basis = "the request's type" });
            }
        }
        if (targets.Count > 0)
        {
            var kind = targets.Count > 1 || !_index.IsSource(definition) || definition.ContainingType?.TypeKind == TypeKind.Interface || definition.IsAbstract
                ? EdgeKind.Implementation : EdgeKind.Call;
            var via = kind == EdgeKind.Implementation ? SymbolNames.Short(definition) : null;
            foreach (var target in targets)
            {
                Facts.Edges.Add(new Edge(target, site, kind, Conditional, targets.Count, via) { LockId = Lock, Basis = dispatch.Basis });
            }
            if (_index.IsSource(definition))
            {
                return;
            }
        }
        if (_index.IsSource(definition))
        {
            return;
        }
        if (_rules.ForCall(operation, method, receiver, _body) is { } verdict)
        {
            if (HasCompileErrors(operation))
            {
                Facts.Unknown.Add(site);
                return;
            }
            AddBlocking(verdict, site, receiver);
        }
    }

    // mediator.Send(new GetPrice(...)) runs the solution's IRequestHandler<GetPrice, T> (resolved through DI's generics).
    private List<CodeNode> MediatorHandlers(IInvocationOperation call)
    {
        var type = call.TargetMethod.ContainingType is { } t ? SymbolNames.MetadataName(t) : "";
        if (call.TargetMethod.Name is not ("Send" or "Publish") || !(type.StartsWith("MediatR.", StringComparison.Ordinal) || type.StartsWith("Mediator.", StringComparison.Ordinal))
            || call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)?.Value is not { } request)
        {
            return [];
        }
        var requestType = Ops.Unwrap(request)?.Type;
        return requestType is null ? [] : [.. _index.RequestHandlers(requestType).Select(m => _index.NodeFor(m)).OfType<CodeNode>()];
    }

    private void VisitArguments(IOperation call, IEnumerable<IArgumentOperation> arguments, IMethodSymbol method)
    {
        var (kind, conditional, skip) = DelegateRoles.Of(_index, call, method);
        foreach (var argument in arguments)
        {
            var value = Ops.Unwrap(argument.Value);
            var target = value is IDelegateCreationOperation d ? d.Target : value is IAnonymousFunctionOperation or IMethodReferenceOperation ? value : null;
            if (target is null)
            {
                Visit(argument);
                continue;
            }
            if (skip || DelegateUses.Of(target) != DelegateUse.MayRunHere
                || (argument.Parameter is { } parameter && _index.IsSource(method) && !DelegateUses.RunsParameter(_index, method, parameter)))
            {
                if (target is IMethodReferenceOperation skipped)
                {
                    Visit(skipped.Instance);
                }
                continue;
            }
            AddDelegateEdge(target, kind, Conditional || conditional, awaited: kind == EdgeKind.TaskRun && DelegateRoles.IsAwaited(call));
            if (target is IMethodReferenceOperation reference)
            {
                Visit(reference.Instance);
            }
        }
    }

    private void AddDelegateEdge(IOperation target, EdgeKind kind, bool conditional, bool awaited)
    {
        CodeNode? node = target switch
        {
            IAnonymousFunctionOperation lambda => _index.NodeFor(lambda.Syntax),
            IMethodReferenceOperation reference when _index.IsSource(reference.Method) => _index.NodeFor(reference.Method),
            _ => null,
        };
        if (node is not null)
        {
            // A Task.Run body or a continuation runs on another thread, after the lock around its scheduling is released.
            var lockId = kind is EdgeKind.TaskRun or EdgeKind.Continuation ? null : Lock;
            Facts.Edges.Add(new Edge(node, target.Syntax.GetLocation(), kind, conditional, Awaited: awaited) { LockId = lockId });
        }
    }

    private void AddBlocking(Verdict verdict, Location site, IOperation? receiver = null)
    {
        var context = _node.Symbol.IsAsync ? CallContext.AsyncMethod : CallContext.None;
        var evidence = verdict.Evidence ?? Evidence(verdict, receiver);
        Facts.Blocking.Add(new BlockingSite(verdict.Call, site, Conditional, verdict.Certainty, context, verdict.Why) { LockId = Lock, Evidence = evidence });
    }

    // The default evidence: the method matched, on what receiver type, and what it blocks on when known.
    private static string Evidence(Verdict verdict, IOperation? receiver)
    {
        var frame = verdict.Call.Frame;
        var type = frame.TypeName;
        var text = $"calls {type[(type.LastIndexOf('.') + 1)..]}.{frame.MethodName}";
        if (Ops.Unwrap(receiver)?.Type is { } receiverType && Ops.NameOf(receiverType) != type)
        {
            text += $" on a {receiverType.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat)}";
        }
        return verdict.Call.On is { } on ? $"{text} ({on})" : text;
    }

    // A call whose method, receiver or arguments source could not resolve (a package missing): not judged, counted.
    // A blocking verdict on an expression the compiler could not bind in full (a package missing): unknown, not a finding.
    private static bool HasCompileErrors(IOperation operation) =>
        operation.SemanticModel?.GetDiagnostics(operation.Syntax.Span).Any(d => d.Severity == DiagnosticSeverity.Error) == true;

    // With a type missing, overload resolution still picks a candidate (Queryable.Where over an array of an unknown
    // type): a call whose receiver, method or type arguments hold an error type is not judged.
    private static bool Unresolved(IMethodSymbol method, IOperation? receiver) =>
        method.ContainingType is null || HasError(method.ContainingType) || method.TypeArguments.Any(t => HasError(t))
        || Ops.Unwrap(receiver) is IInvalidOperation || HasError(Ops.Unwrap(receiver)?.Type);

    private static bool HasError(ITypeSymbol? type, int depth = 0) => type is not null && depth < 6 && (type.TypeKind == TypeKind.Error
        || (type is INamedTypeSymbol { IsGenericType: true } named && named.TypeArguments.Any(t => HasError(t, depth + 1)))
        || (type is IArrayTypeSymbol array && HasError(array.ElementType, depth + 1)));

    // The line a hop points at: the invocation's name, not the start of a long receiver chain.
    private static Location Site(IOperation operation) => operation.Syntax.GetLocation();

    private static bool IsMonitor(IMethodSymbol method, params string[] names) =>
        names.Contains(method.Name) && method.ContainingType is { } t && SymbolNames.MetadataName(t) == "System.Threading.Monitor";

    /// <summary>Monitor.Enter(x) ... Monitor.Exit(x): the calls between them run under that lock.</summary>
    private void AssignMonitorRegions()
    {
        foreach (var (id, key, start) in _monitors)
        {
            var end = _monitorExits.Where(e => e.Key == key && e.Start > start).Select(e => e.Start).DefaultIfEmpty(int.MaxValue).Min();
            bool Inside(Location l) => l.SourceSpan.Start > start && l.SourceSpan.Start < end;
            for (var i = 0; i < Facts.Edges.Count; i++)
            {
                if (Facts.Edges[i].LockId is null && Facts.Edges[i].Kind is not (EdgeKind.TaskRun or EdgeKind.Continuation) && Inside(Facts.Edges[i].Site))
                {
                    Facts.Edges[i] = Facts.Edges[i] with { LockId = id };
                }
            }
            for (var i = 0; i < Facts.Blocking.Count; i++)
            {
                if (Facts.Blocking[i].LockId is null && Inside(Facts.Blocking[i].Site))
                {
                    Facts.Blocking[i] = Facts.Blocking[i] with { LockId = id };
                }
            }
        }
    }
}
