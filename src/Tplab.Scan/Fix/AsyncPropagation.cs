using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Fix;

/// <summary>A caller that cannot become async: it now waits on the task where it called the method, and why it must.</summary>
internal sealed record Boundary(string Method, string UserMethod, string File, int Line, string Reason)
{
    public override string ToString() => $"{Method} ({File}:{Line}) {Reason}";
}

/// <summary>
/// Carries async up from an await: the method that holds it becomes async (with its interface, base and every
/// implementation and override in the solution, renamed together), and every call of a method whose return type
/// changed is awaited, in every caller of the solution, recursively. A caller that cannot be async (a constructor, an
/// accessor, an operator, a lambda whose delegate returns no task, a method implementing a package's interface, Main)
/// waits on the task instead (<c>.GetAwaiter().GetResult()</c>) and is named as a boundary.
/// </summary>
internal sealed class AsyncPropagation(Solution solution, ChangeSet changes, FixNaming naming, int maxMethods, CancellationToken cancellationToken)
{
    private readonly Dictionary<SyntaxNode, string?> _decided = [];
    private readonly Dictionary<SyntaxTree, SemanticModel> _models = [];

    public List<Boundary> Boundaries { get; } = [];

    /// <summary>Places the compiler may reject that no edit covers (a changed method passed as a delegate).</summary>
    public List<string> Notes { get; } = [];

    /// <summary>Makes the code around <paramref name="node"/> able to await; null when it can, else why not.</summary>
    public async Task<string?> RequireAwaitAsync(SyntaxNode node)
    {
        var (container, blocker) = Container(node);
        if (blocker is not null)
        {
            return blocker;
        }
        if (container is null)
        {
            return "it is not inside a method";
        }
        if (_decided.TryGetValue(container, out var known))
        {
            if (known is null && changes.Containers.TryGetValue(container, out var existing))
            {
                existing.Awaits = true;
            }
            return known;
        }
        _decided[container] = null;
        var reason = await DecideAsync(container).ConfigureAwait(false);
        _decided[container] = reason;
        if (reason is null && changes.Containers.TryGetValue(container, out var change))
        {
            change.Awaits = true;
        }
        if (changes.MethodCount > maxMethods)
        {
            throw new FixTooWideException($"the change reaches more than {maxMethods} methods: fix the chain by hand, or select fewer findings");
        }
        return reason;
    }

    private async Task<string?> DecideAsync(SyntaxNode container)
    {
        var model = await ModelAsync(container.SyntaxTree).ConfigureAwait(false);
        switch (container)
        {
            case GlobalStatementSyntax:
                return null;
            case AnonymousFunctionExpressionSyntax lambda:
                return Lambda(model, lambda);
            case LocalFunctionStatementSyntax local:
                return await LocalFunctionAsync(model, local).ConfigureAwait(false);
            case MethodDeclarationSyntax method:
                return await MethodAsync(model, method).ConfigureAwait(false);
            case ConstructorDeclarationSyntax:
                return "a constructor cannot be async: build the value in an async factory method or initialise it at startup";
            case AccessorDeclarationSyntax or ArrowExpressionClauseSyntax:
                return "a property accessor cannot be async: turn the property into an async method";
            case OperatorDeclarationSyntax or ConversionOperatorDeclarationSyntax:
                return "an operator cannot be async";
            case DestructorDeclarationSyntax:
                return "a finalizer cannot be async";
            default:
                return "a field initialiser cannot await: initialise it in an async method";
        }
    }

    private string? Lambda(SemanticModel model, AnonymousFunctionExpressionSyntax lambda)
    {
        if (lambda.AsyncKeyword.IsKind(SyntaxKind.AsyncKeyword))
        {
            return null;
        }
        var delegateType = model.GetTypeInfo(lambda, cancellationToken).ConvertedType as INamedTypeSymbol;
        var symbol = model.GetSymbolInfo(lambda, cancellationToken).Symbol as IMethodSymbol;
        var returnsTask = symbol is not null && FixTypes.IsTask(symbol.ReturnType);
        // await Task.Run(() => Blocking()) → await BlockingAsync(): the hop saves nothing once the call is awaited.
        if (TaskRunUnwrap(model, lambda) is { } run)
        {
            changes.Replace(run, n => ((InvocationExpressionSyntax)n).ArgumentList.Arguments[0].Expression is AnonymousFunctionExpressionSyntax { ExpressionBody: AwaitExpressionSyntax a }
                ? a.Expression.WithTriviaFrom(n) : n);
            return null;
        }
        var ok = delegateType is null
            || delegateType.ToDisplayString() is "System.Delegate" or "System.MulticastDelegate"
            || (delegateType.DelegateInvokeMethod is { } invoke && FixTypes.IsTask(invoke.ReturnType))
            || IsTaskRunArgument(model, lambda);
        if (!ok)
        {
            return delegateType!.DelegateInvokeMethod is { ReturnsVoid: true }
                ? $"a lambda passed as {delegateType.ToDisplayString()} would become async void: the caller could not wait for it"
                : $"a lambda passed as {delegateType.ToDisplayString()} cannot become async without changing the delegate's type";
        }
        changes.Containers[lambda] = new ContainerChange { AwaitsReturns = returnsTask, HasResult = returnsTask && symbol!.ReturnType is INamedTypeSymbol { IsGenericType: true } };
        return null;
    }

    private static InvocationExpressionSyntax? TaskRunUnwrap(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        lambda.ExpressionBody is not null && lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Arguments.Count: 1, Parent: InvocationExpressionSyntax run } }
            && run.Parent is AwaitExpressionSyntax && IsTaskRunArgument(model, lambda) && lambda is ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: 0 }
            ? run : null;

    private static bool IsTaskRunArgument(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax run } }
        && model.GetSymbolInfo(run).Symbol is IMethodSymbol { Name: "Run" } m && m.ContainingType.ToDisplayString() == "System.Threading.Tasks.Task";

    private async Task<string?> LocalFunctionAsync(SemanticModel model, LocalFunctionStatementSyntax local)
    {
        if (model.GetDeclaredSymbol(local, cancellationToken) is not IMethodSymbol symbol)
        {
            return "its symbol is not known";
        }
        if (symbol.IsAsync)
        {
            return null;
        }
        if (Cannot(symbol, local) is { } why)
        {
            return why;
        }
        var returnsTask = FixTypes.IsTask(symbol.ReturnType);
        changes.Containers[local] = new ContainerChange
        {
            AwaitsReturns = returnsTask,
            HasResult = returnsTask && symbol.ReturnType is INamedTypeSymbol { IsGenericType: true },
            ChangesReturnType = !returnsTask,
            Task = TaskName(model, local),
        };
        if (returnsTask)
        {
            return null;
        }
        var scope = local.Parent!;
        foreach (var call in scope.DescendantNodes().OfType<InvocationExpressionSyntax>()
            .Where(i => SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(i, cancellationToken).Symbol, symbol)).ToList())
        {
            await AwaitOrBlockAsync(model, call).ConfigureAwait(false);
        }
        return null;
    }

    private async Task<string?> MethodAsync(SemanticModel model, MethodDeclarationSyntax method)
    {
        if (model.GetDeclaredSymbol(method, cancellationToken) is not { } symbol)
        {
            return "its symbol is not known";
        }
        if (symbol.IsAsync)
        {
            return null;
        }
        if (FixTypes.IsTask(symbol.ReturnType))
        {
            if (method.Body is null && method.ExpressionBody is null)
            {
                return "it has no body";
            }
            changes.Containers[method] = new ContainerChange { AwaitsReturns = true, HasResult = symbol.ReturnType is INamedTypeSymbol { IsGenericType: true } };
            return null;
        }
        if (Cannot(symbol, method) is { } why)
        {
            return why;
        }
        var family = await FamilyAsync(symbol).ConfigureAwait(false);
        if (family.FirstOrDefault(m => m.DeclaringSyntaxReferences.Any(r => IsGenerated(r.SyntaxTree))) is { } generated)
        {
            return $"{generated.ContainingType?.Name}.{generated.Name} is declared in generated code ({naming.Relative(generated.DeclaringSyntaxReferences[0].SyntaxTree.FilePath)}): change its source (the .proto, the generator's input) instead";
        }
        if (family.FirstOrDefault(m => m.Locations.Any(l => l.IsInMetadata) || m.DeclaringSyntaxReferences.Length == 0) is { } outside)
        {
            return $"it implements or overrides {outside.ContainingType?.Name}.{outside.Name} from {outside.ContainingAssembly?.Name ?? "a package"}, whose signature cannot change";
        }
        var newName = naming.NewName(family);
        var declarations = new List<(IMethodSymbol Symbol, SyntaxNode Syntax)>();
        foreach (var member in family)
        {
            var syntax = await member.DeclaringSyntaxReferences[0].GetSyntaxAsync(cancellationToken).ConfigureAwait(false);
            if (syntax is not MethodDeclarationSyntax declaration || (!SymbolEqualityComparer.Default.Equals(member, symbol) && Cannot(member, declaration) is not null))
            {
                return $"{member.ContainingType?.Name}.{member.Name} cannot change with it: {Cannot(member, syntax) ?? "it is not a method declaration"}";
            }
            declarations.Add((member, declaration));
        }
        // Every reference first: a method passed as a delegate that returns no task (a TimerCallback, an Action) cannot change.
        var locations = new List<Location>();
        foreach (var (member, _) in declarations)
        {
            var references = await SymbolFinder.FindReferencesAsync(member, solution, cancellationToken).ConfigureAwait(false);
            locations.AddRange(references.Where(r => SymbolEqualityComparer.Default.Equals(r.Definition, member) || family.Contains(r.Definition, SymbolEqualityComparer.Default))
                .SelectMany(r => r.Locations).Where(l => !l.IsImplicit).Select(l => l.Location));
        }
        locations = [.. locations.Distinct()];
        foreach (var location in locations)
        {
            if (location.SourceTree is { } t && (solution.GetDocument(t) is null || IsGenerated(t)))
            {
                return $"it is called from generated code ({naming.Relative(t.FilePath)}: a Razor view or a source generator's output), which tplab does not edit";
            }
            if (await DelegateUseAsync(location).ConfigureAwait(false) is { } use)
            {
                return use;
            }
        }
        foreach (var (member, declaration) in declarations)
        {
            var memberModel = await ModelAsync(declaration.SyntaxTree).ConfigureAwait(false);
            var body = (SyntaxNode?)((MethodDeclarationSyntax)declaration).Body;
            changes.Containers[declaration] = new ContainerChange
            {
                ChangesReturnType = true,
                NewName = newName,
                Task = TaskName(memberModel, declaration),
                EndReachable = body is BlockSyntax { Statements.Count: > 0 } b
                    ? memberModel.AnalyzeControlFlow(b.Statements[0], b.Statements[^1]) is { Succeeded: true } flow && flow.EndPointIsReachable
                    : body is BlockSyntax,
            };
            _decided[declaration] = null;
        }
        foreach (var location in locations)
        {
            await ReferenceAsync(location, newName).ConfigureAwait(false);
        }
        return null;
    }

    // obj/ output, *.g.cs and *.designer.cs, or a file that says it is generated.
    private static bool IsGenerated(SyntaxTree tree)
    {
        var path = tree.FilePath.Replace('\\', '/');
        if (path.Contains("/obj/", StringComparison.Ordinal) || path.EndsWith(".g.cs", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".designer.cs", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }
        var text = tree.GetText();
        var head = text.ToString(new Microsoft.CodeAnalysis.Text.TextSpan(0, Math.Min(400, text.Length)));
        return head.Contains("<auto-generated", StringComparison.Ordinal);
    }

    // A method group converted to a delegate whose result is not a task: the method cannot return one.
    private async Task<string?> DelegateUseAsync(Location location)
    {
        if (location.SourceTree is not { } tree)
        {
            return null;
        }
        var root = await tree.GetRootAsync(cancellationToken).ConfigureAwait(false);
        if (root.FindNode(location.SourceSpan, getInnermostNodeForTie: true) is not SimpleNameSyntax simple)
        {
            return null;
        }
        ExpressionSyntax used = simple.Parent is MemberAccessExpressionSyntax ma && ma.Name == simple ? ma : simple;
        if (used.Parent is InvocationExpressionSyntax call && call.Expression == used)
        {
            return null;
        }
        var model = await ModelAsync(tree).ConfigureAwait(false);
        if (model.GetTypeInfo(used, cancellationToken).ConvertedType is INamedTypeSymbol { TypeKind: TypeKind.Delegate, DelegateInvokeMethod: { } invoke } type
            && type.ToDisplayString() is not ("System.Delegate" or "System.MulticastDelegate") && !FixTypes.IsTask(invoke.ReturnType))
        {
            return $"it is passed as a {type.ToDisplayString()} at {Where(simple)}, a delegate that returns no task"
                + (type.Name == "TimerCallback" ? " (a timer callback: run the work in a BackgroundService with a PeriodicTimer and await it there)" : "");
        }
        return null;
    }

    private async Task ReferenceAsync(Location location, string? newName)
    {
        if (location.SourceTree is not { } tree)
        {
            return;
        }
        var root = await tree.GetRootAsync(cancellationToken).ConfigureAwait(false);
        var name = root.FindNode(location.SourceSpan, getInnermostNodeForTie: true);
        if (name is not SimpleNameSyntax simple)
        {
            return;
        }
        if (newName is not null)
        {
            changes.Rename(simple, newName);
        }
        ExpressionSyntax called = simple.Parent is MemberAccessExpressionSyntax ma && ma.Name == simple ? ma : simple;
        var model = await ModelAsync(tree).ConfigureAwait(false);
        if (called.Parent is InvocationExpressionSyntax call && call.Expression == called)
        {
            await AwaitOrBlockAsync(model, call).ConfigureAwait(false);
            return;
        }
        if (simple.Parent is MemberBindingExpressionSyntax)
        {
            Notes.Add($"{Where(simple)}: called through ?.; await it by hand");
            return;
        }
        if (called.Parent is ArgumentSyntax { Parent.Parent: InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } } })
        {
            return;
        }
        var converted = model.GetTypeInfo(called, cancellationToken).ConvertedType;
        if (converted?.ToDisplayString() is "System.Delegate" or "System.MulticastDelegate")
        {
            return;
        }
        Notes.Add($"{Where(simple)}: used as a delegate ({converted?.ToDisplayString() ?? "unknown type"}); its delegate type must return a task");
    }

    private async Task AwaitOrBlockAsync(SemanticModel model, InvocationExpressionSyntax call)
    {
        if (changes.IsReplaced(call))
        {
            return;
        }
        var why = await RequireAwaitAsync(call).ConfigureAwait(false);
        var configure = changes.ConfigureAwait(call.SyntaxTree);
        if (why is null)
        {
            changes.Replace(call, n => AsyncSyntax.Await((ExpressionSyntax)n, call, configure));
            return;
        }
        changes.Replace(call, n => AsyncSyntax.Block((ExpressionSyntax)n));
        var caller = model.GetEnclosingSymbol(call.SpanStart, cancellationToken);
        while (caller is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } && caller.ContainingSymbol is { } outer)
        {
            caller = outer;
        }
        var (type, name) = caller is IMethodSymbol cm ? SymbolNames.UserMethod(cm) : (caller?.ContainingType?.ToDisplayString() ?? "", caller?.Name ?? "?");
        var display = $"{type[(type.LastIndexOf('.') + 1)..]}.{name}";
        Boundaries.Add(new Boundary(display, type + "." + name, RelativePath(call), call.GetLocation().GetLineSpan().StartLinePosition.Line + 1, why));
    }

    private static string? Cannot(IMethodSymbol symbol, SyntaxNode syntax)
    {
        if (symbol.Parameters.Any(p => p.RefKind is RefKind.Ref or RefKind.Out or RefKind.In or RefKind.RefReadOnlyParameter))
        {
            return "it has ref, out or in parameters, which an async method cannot have (CS1988)";
        }
        if (syntax.DescendantNodes().OfType<YieldStatementSyntax>().Any(y => AsyncSyntax.DirectlyIn(y, syntax)))
        {
            return "it is an iterator: it would become IAsyncEnumerable with await foreach at every consumer; rewrite it by hand";
        }
        if (symbol.Name == "Main" && symbol.IsStatic)
        {
            return "it is the program's Main (startup runs before the app serves requests)";
        }
        if (symbol.IsPartialDefinition || symbol.PartialImplementationPart is not null || symbol.PartialDefinitionPart is not null || symbol.IsExtern)
        {
            return "it is a partial or extern method";
        }
        if (symbol.ReturnsVoid && symbol.Parameters.Length == 2 && symbol.Parameters[1].Type.Name.EndsWith("EventArgs", StringComparison.Ordinal))
        {
            return "it is an event handler: it would become async void; raise the work as a task instead";
        }
        if (symbol.ReturnsByRef || symbol.ReturnsByRefReadonly || symbol.ReturnType.IsRefLikeType)
        {
            return "it returns a ref or a ref struct, which a task cannot carry";
        }
        return null;
    }

    // The method, the members it overrides or implements, and every override and implementation of those in the solution.
    private async Task<List<IMethodSymbol>> FamilyAsync(IMethodSymbol symbol)
    {
        var family = new List<IMethodSymbol>();
        var queue = new Queue<IMethodSymbol>([symbol]);
        while (queue.Count > 0)
        {
            var m = queue.Dequeue().OriginalDefinition;
            if (family.Contains(m, SymbolEqualityComparer.Default))
            {
                continue;
            }
            family.Add(m);
            if (m.OverriddenMethod is { } overridden)
            {
                queue.Enqueue(overridden);
            }
            foreach (var explicitly in m.ExplicitInterfaceImplementations)
            {
                queue.Enqueue(explicitly);
            }
            if (m.ContainingType is { } type)
            {
                foreach (var iface in type.AllInterfaces)
                {
                    foreach (var member in iface.GetMembers(m.Name).OfType<IMethodSymbol>())
                    {
                        if (SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(member)?.OriginalDefinition, m))
                        {
                            queue.Enqueue(member);
                        }
                    }
                }
            }
            if (m.IsAbstract || m.IsVirtual || m.IsOverride || m.ContainingType?.TypeKind == TypeKind.Interface)
            {
                foreach (var o in await SymbolFinder.FindOverridesAsync(m, solution, cancellationToken: cancellationToken).ConfigureAwait(false))
                {
                    queue.Enqueue((IMethodSymbol)o);
                }
                foreach (var i in await SymbolFinder.FindImplementationsAsync(m, solution, cancellationToken: cancellationToken).ConfigureAwait(false))
                {
                    if (i is IMethodSymbol im)
                    {
                        queue.Enqueue(im);
                    }
                }
            }
        }
        return family;
    }

    /// <summary>The member, local function or lambda that holds <paramref name="node"/>, and what forbids an await there (a lock).</summary>
    public static (SyntaxNode? Container, string? Blocker) Container(SyntaxNode node)
    {
        for (var n = node.Parent; n is not null; n = n.Parent)
        {
            switch (n)
            {
                case LockStatementSyntax l when l.Statement.Span.Contains(node.Span):
                    return (n, $"it is inside lock ({l.Expression}): await is not allowed in a lock body (CS1996); move the call out of the lock, or replace the lock with a SemaphoreSlim(1, 1) awaited with WaitAsync where the lock object is private to its type");
                case AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax or BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or GlobalStatementSyntax:
                    return (n, null);
                case ArrowExpressionClauseSyntax a when a.Parent is PropertyDeclarationSyntax or IndexerDeclarationSyntax:
                    return (n, null);
                case VariableDeclaratorSyntax { Parent.Parent: FieldDeclarationSyntax }:
                case ParameterSyntax:
                case AttributeSyntax:
                    return (n, null);
                case QueryExpressionSyntax:
                    return (n, "it is inside a query expression, where await is not allowed: rewrite the query with methods by hand");
            }
        }
        return (null, null);
    }

    private async Task<SemanticModel> ModelAsync(SyntaxTree tree)
    {
        if (!_models.TryGetValue(tree, out var model))
        {
            var document = solution.GetDocument(tree) ?? throw new InvalidOperationException("a tree outside the solution");
            model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) ?? throw new InvalidOperationException("no semantic model");
            _models[tree] = model;
        }
        return model;
    }

    private string TaskName(SemanticModel model, SyntaxNode at)
    {
        var named = model.LookupNamespacesAndTypes(at.SpanStart, name: "Task");
        if (named.Any(s => s.ToDisplayString() == "System.Threading.Tasks.Task"))
        {
            return "Task";
        }
        if (named.IsEmpty)
        {
            changes.Using(at.SyntaxTree, "System.Threading.Tasks");
            return "Task";
        }
        return "System.Threading.Tasks.Task";
    }

    private string Where(SyntaxNode node) => $"{RelativePath(node)}:{node.GetLocation().GetLineSpan().StartLinePosition.Line + 1}";

    private string RelativePath(SyntaxNode node) => naming.Relative(node.SyntaxTree.FilePath);
}

/// <summary>Which C# types are tasks, for the rewrite's purposes.</summary>
internal static class FixTypes
{
    public static bool IsTask(ITypeSymbol? type) =>
        type is INamedTypeSymbol t && t.OriginalDefinition.ToDisplayString() is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task<TResult>"
            or "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask<TResult>";
}

/// <summary>A fix that would change more methods than allowed.</summary>
internal sealed class FixTooWideException(string message) : Exception(message);
