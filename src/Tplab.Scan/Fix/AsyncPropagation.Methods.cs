using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;

namespace Tplab.Scan.Fix;

/// <summary>Methods and local functions made async, their families, and the references that follow them.</summary>
internal sealed partial class AsyncPropagation
{
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
        if (AsyncRules.Cannot(symbol, local) is { } why)
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
        if (AsyncRules.Cannot(symbol, method) is { } why)
        {
            return why;
        }
        var family = await FamilyAsync(symbol).ConfigureAwait(false);
        if (family.FirstOrDefault(m => m.DeclaringSyntaxReferences.Any(r => IsGenerated(r.SyntaxTree))) is { } generated)
        {
            return $"{generated.ContainingType?.Name}.{generated.Name} is declared in generated code ({naming.Relative(generated.DeclaringSyntaxReferences[0].SyntaxTree.FilePath)}): change its source (the .proto, the generator's input) instead";
        }
        // A synchronous MVC filter's method: the class implements the async twin instead, so the package's interface no longer binds it.
        var filter = MvcFilter.For(symbol, family);
        if (filter is not null)
        {
            family = [symbol];
        }
        if (family.FirstOrDefault(m => m.Locations.Any(l => l.IsInMetadata) || m.DeclaringSyntaxReferences.Length == 0) is { } outside)
        {
            return $"it implements or overrides {outside.ContainingType?.Name}.{outside.Name} from {outside.ContainingAssembly?.Name ?? "a package"}, whose signature cannot change";
        }
        if (filter is { } cannotBe && await FilterBlockerAsync(model, method, symbol, cannotBe.Filter).ConfigureAwait(false) is { } notFilter)
        {
            return notFilter;
        }
        var newName = naming.NewName(family);
        var declarations = new List<(IMethodSymbol Symbol, SyntaxNode Syntax)>();
        foreach (var member in family)
        {
            var syntax = await member.DeclaringSyntaxReferences[0].GetSyntaxAsync(cancellationToken).ConfigureAwait(false);
            if (syntax is not MethodDeclarationSyntax declaration || (!SymbolEqualityComparer.Default.Equals(member, symbol) && AsyncRules.Cannot(member, declaration) is not null))
            {
                return $"{member.ContainingType?.Name}.{member.Name} cannot change with it: {AsyncRules.Cannot(member, syntax) ?? "it is not a method declaration"}";
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
        if (filter is { } f)
        {
            ReshapeFilter(model, (ClassDeclarationSyntax)method.Parent!, symbol, f.Filter, newName);
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
}
