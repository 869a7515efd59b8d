using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// Records what one node's body does, as the walk meets it: a call becomes edges into the solution's code (every
/// implementation dispatch allows) or a blocking library call the rules judge; a lambda handed on becomes an edge of
/// its kind. Each fact carries the walk's scope: in a branch or not, and the lock held.
/// </summary>
internal sealed class FactRecorder(SourceIndex index, BlockingRules rules, CodeNode node, IOperation body, WalkScope scope)
{
    // The compile errors of each member declaration read so far (weakly held: a scan's trees go with it).
    private static readonly ConditionalWeakTable<SyntaxNode, List<Diagnostic>> MemberErrors = new();

    public NodeFacts Facts { get; } = new();

    /// <summary>A call of <paramref name="method"/>: an edge into the solution's code, or a library call the rules judge.</summary>
    public void OnCall(IOperation operation, IMethodSymbol method, IOperation? receiver, bool isVirtual)
    {
        var definition = SymbolNames.Definition(method);
        var site = operation.Syntax.GetLocation();
        if (Unresolved(method, receiver))
        {
            Facts.Unknown.Add(site);
            return;
        }
        if (rules.Configured(definition) is { } configured)
        {
            AddBlocking(configured, site);
            return;
        }
        var dispatch = Dispatch.Resolve(index, definition, receiver, isVirtual);
        var targets = dispatch.Nodes;
        if (targets.Count == 0 && operation is IInvocationOperation sent && MediatorHandlers(sent) is { Count: > 0 } handlers)
        {
            foreach (var handler in handlers)
            {
                Facts.Edges.Add(new Edge(handler, site, EdgeKind.Implementation, scope.Conditional, handlers.Count, $"{definition.ContainingType?.Name}.{definition.Name}") { LockId = scope.Lock, Basis = "the request's type" });
            }
        }
        if (targets.Count > 0)
        {
            var kind = targets.Count > 1 || !index.IsSource(definition) || definition.ContainingType?.TypeKind == TypeKind.Interface || definition.IsAbstract
                ? EdgeKind.Implementation : EdgeKind.Call;
            var via = kind == EdgeKind.Implementation ? SymbolNames.Short(definition) : null;
            var typeArguments = method.IsGenericMethod ? method.TypeArguments : default;
            var genericReceiver = kind == EdgeKind.Implementation && targets.Count > 1 && Ops.Unwrap(receiver)?.Type is INamedTypeSymbol { IsGenericType: true } r
                && TypeShapes.MentionsTypeParameter(r) ? r : null;
            var onThis = Ops.Unwrap(receiver) is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance };
            var receiverClass = !onThis && Ops.Unwrap(receiver)?.Type is INamedTypeSymbol { TypeKind: TypeKind.Class } c ? c : null;
            var calledOn = method.ContainingType is { IsGenericType: true } owner ? owner : null;
            var onTypeParameter = !onThis && Ops.Unwrap(receiver)?.Type is ITypeParameterSymbol parameter ? new TypeParameterCall(parameter, definition) : null;
            var virtualOnThis = onThis && isVirtual && kind == EdgeKind.Implementation && targets.Count > 1 ? definition : null;
            foreach (var target in targets)
            {
                Facts.Edges.Add(new Edge(target, site, kind, scope.Conditional, targets.Count, via)
                {
                    LockId = scope.Lock, Basis = dispatch.Basis, TypeArguments = typeArguments, GenericReceiver = genericReceiver,
                    CalledOn = calledOn, OnThis = onThis, VirtualOnThis = virtualOnThis, ReceiverClass = receiverClass, OnTypeParameter = onTypeParameter,
                });
            }
        }
        if (index.IsSource(definition))
        {
            return;
        }
        if (rules.ForCall(operation, method, receiver, body) is { } verdict)
        {
            if (HasCompileErrors(operation))
            {
                Facts.Unknown.Add(site);
                return;
            }
            AddBlocking(verdict, site, receiver);
        }
    }

    /// <summary>
    /// The arguments of a call: each is walked by <paramref name="visit"/>, except a lambda or method group, which
    /// becomes an edge of the role the call gives it (a Task.Run body, a continuation, a callback) when it may run.
    /// </summary>
    public void OnArguments(IOperation call, IEnumerable<IArgumentOperation> arguments, IMethodSymbol method, Action<IOperation?> visit)
    {
        var (kind, conditional, skip) = DelegateRoles.Of(index, call, method);
        foreach (var argument in arguments)
        {
            var value = Ops.Unwrap(argument.Value);
            var target = value is IDelegateCreationOperation d ? d.Target : value is IAnonymousFunctionOperation or IMethodReferenceOperation ? value : null;
            if (target is null)
            {
                visit(argument);
                continue;
            }
            if (skip || DelegateUses.Of(target) != DelegateUse.MayRunHere
                || (argument.Parameter is { } parameter && index.IsSource(method) && !DelegateUses.RunsParameter(index, method, parameter)))
            {
                if (target is IMethodReferenceOperation skipped)
                {
                    visit(skipped.Instance);
                }
                continue;
            }
            AddDelegateEdge(target, kind, scope.Conditional || conditional, awaited: kind == EdgeKind.TaskRun && DelegateRoles.IsAwaited(call));
            if (target is IMethodReferenceOperation reference)
            {
                visit(reference.Instance);
            }
        }
    }

    /// <summary>A lambda or method group that runs as <paramref name="kind"/>: an edge to its node, when it is the solution's.</summary>
    public void AddDelegateEdge(IOperation target, EdgeKind kind, bool conditional, bool awaited)
    {
        CodeNode? to = target switch
        {
            IAnonymousFunctionOperation lambda => index.NodeFor(lambda.Syntax),
            IMethodReferenceOperation reference when index.IsSource(reference.Method) => index.NodeFor(reference.Method),
            _ => null,
        };
        if (to is not null)
        {
            // A Task.Run body or a continuation runs on another thread, after the lock around its scheduling is released.
            var lockId = kind is EdgeKind.TaskRun or EdgeKind.Continuation ? null : scope.Lock;
            Facts.Edges.Add(new Edge(to, target.Syntax.GetLocation(), kind, conditional, Awaited: awaited) { LockId = lockId });
        }
    }

    /// <summary>A blocking call the rules judged, at <paramref name="site"/>.</summary>
    public void AddBlocking(Verdict verdict, Location site, IOperation? receiver = null)
    {
        var context = node.Symbol.IsAsync ? CallContext.AsyncMethod : CallContext.None;
        var evidence = verdict.Evidence ?? Evidence(verdict, receiver);
        Facts.Blocking.Add(new BlockingSite(verdict.Call, site, scope.Conditional, verdict.Certainty, context, verdict.Why) { LockId = scope.Lock, Evidence = evidence });
    }

    /// <summary>A lock taken at <paramref name="site"/> on <paramref name="locked"/>: its id.</summary>
    public int AddLock(IOperation locked, Location site, Func<int> nextLockId, out string key)
    {
        (key, var description) = LockKeys.Of(locked, body, node.Syntax.SpanStart.ToString(System.Globalization.CultureInfo.InvariantCulture) + node.RelativePath);
        var id = nextLockId();
        Facts.Locks.Add(new LockSite(id, key, description, site, scope.Conditional));
        return id;
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
        return requestType is null ? [] : [.. index.RequestHandlers(requestType).Select(m => index.NodeFor(m)).OfType<CodeNode>()];
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

    /// <summary>An expression the compiler could not bind in full (a package missing): a verdict on it is unknown, not a finding.</summary>
    public static bool HasCompileErrors(IOperation operation)
    {
        if (operation.SemanticModel is not { } model)
        {
            return false;
        }
        var span = operation.Syntax.Span;
        // Roslyn compiles the whole member for a span's diagnostics: its errors are read once per member, then
        // matched by location as GetDiagnostics(span) matches them (primary or additional location intersecting).
        if (operation.Syntax.AncestorsAndSelf().OfType<MemberDeclarationSyntax>().FirstOrDefault(m => m is not BaseTypeDeclarationSyntax and not BaseNamespaceDeclarationSyntax) is not { } member)
        {
            return model.GetDiagnostics(span).Any(d => d.Severity == DiagnosticSeverity.Error);
        }
        var errors = MemberErrors.GetValue(member, m => [.. model.GetDiagnostics(m.Span).Where(d => d.Severity == DiagnosticSeverity.Error)]);
        return errors.Any(d => new[] { d.Location }.Concat(d.AdditionalLocations)
            .Any(l => l.SourceTree == operation.Syntax.SyntaxTree && l.SourceSpan.IntersectsWith(span)));
    }

    // With a type missing, overload resolution still picks a candidate (Queryable.Where over an array of an unknown
    // type): a call whose receiver, method or type arguments hold an error type is not judged.
    private static bool Unresolved(IMethodSymbol method, IOperation? receiver) =>
        method.ContainingType is null || HasError(method.ContainingType) || method.TypeArguments.Any(t => HasError(t))
        || Ops.Unwrap(receiver) is IInvalidOperation || HasError(Ops.Unwrap(receiver)?.Type);

    private static bool HasError(ITypeSymbol? type, int depth = 0) => type is not null && depth < 6 && (type.TypeKind == TypeKind.Error
        || (type is INamedTypeSymbol { IsGenericType: true } named && named.TypeArguments.Any(t => HasError(t, depth + 1)))
        || (type is IArrayTypeSymbol array && HasError(array.ElementType, depth + 1)));
}
