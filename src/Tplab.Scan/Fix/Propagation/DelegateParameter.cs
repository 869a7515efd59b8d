using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Fix.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A lambda that must await, passed as <c>Func&lt;…, T&gt;</c> to a parameter of a method of the solution's own: the
/// parameter becomes <c>Func&lt;…, Task&lt;T&gt;&gt;</c>, the lambda <c>async</c>, each call of the parameter in the
/// method is awaited (so the method becomes async in turn, its callers with it), and the lambdas other callers pass
/// there return <c>Task.FromResult&lt;T&gt;(…)</c>. Only where every change is sure: the method is an ordinary one of
/// the solution (no interface, base or override family, not generated), the parameter is written <c>Func&lt;…&gt;</c>
/// and only called in the method's body, and every argument given for it in the solution is a lambda (an
/// expression-bodied one where it does not await). Otherwise the lambda stays a boundary, with the reason.
/// </summary>
internal sealed class DelegateParameter(FixContext context, CallerUpdate callers)
{
    private readonly HashSet<IParameterSymbol> _changed = new(SymbolEqualityComparer.Default);

    /// <summary>
    /// Whether the lambda is passed to a parameter of a method declared in the solution (else nothing is planned), and
    /// when it is, null when the change is planned, else why it cannot be.
    /// </summary>
    public async Task<(bool Applies, string? Why)> ChangeAsync(SemanticModel model, AnonymousFunctionExpressionSyntax lambda)
    {
        if (lambda.Parent is not ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax call } } argument
            || model.GetSymbolInfo(call, context.CancellationToken).Symbol is not IMethodSymbol called
            || called.DeclaringSyntaxReferences.Length == 0
            || ParameterOf(called, argument) is not { } parameter)
        {
            return (false, null);
        }
        return (true, await PlanAsync(lambda, parameter.OriginalDefinition).ConfigureAwait(false));
    }

    private async Task<string?> PlanAsync(AnonymousFunctionExpressionSyntax lambda, IParameterSymbol parameter)
    {
        if (_changed.Contains(parameter))
        {
            context.Changes.Containers[lambda] = new ContainerChange();
            return null;
        }
        var method = (IMethodSymbol)parameter.ContainingSymbol;
        if (parameter.Type is not INamedTypeSymbol { Name: "Func", ContainingNamespace.Name: "System" } func || FixTypes.IsTask(func.TypeArguments[^1]))
        {
            return "its parameter is not a Func<…, T> (an Action or a delegate type would need its own async form)";
        }
        if (method.DeclaringSyntaxReferences.Length != 1 || method.IsVirtual || method.IsAbstract || method.IsOverride
            || method.ContainingType.TypeKind == TypeKind.Interface || method.ContainingType.AllInterfaces.SelectMany(i => i.GetMembers(method.Name)).Any()
            || await method.DeclaringSyntaxReferences[0].GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false) is not MethodDeclarationSyntax declaration
            || FixContext.IsGenerated(declaration.SyntaxTree) || context.Solution.GetDocument(declaration.SyntaxTree) is null
            || AsyncRules.Cannot(method, declaration) is not null)
        {
            return $"{method.ContainingType.Name}.{method.Name} takes it as {func.ToDisplayString()}, and that method cannot change alone (a package's, generated, part of an interface or override family, or not allowed to be async)";
        }
        var parameterSyntax = (ParameterSyntax)await parameter.DeclaringSyntaxReferences[0].GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false);
        if (parameterSyntax.Type is not GenericNameSyntax { Identifier.ValueText: "Func" } and not QualifiedNameSyntax { Right: GenericNameSyntax { Identifier.ValueText: "Func" } })
        {
            return $"the parameter {parameter.Name} of {method.Name} is not written Func<…>";
        }
        var methodModel = await context.ModelAsync(declaration.SyntaxTree).ConfigureAwait(false);
        var invocations = new List<InvocationExpressionSyntax>();
        foreach (var use in declaration.DescendantNodes().OfType<IdentifierNameSyntax>().Where(i => i.Identifier.ValueText == parameter.Name
            && SymbolEqualityComparer.Default.Equals(methodModel.GetSymbolInfo(i, context.CancellationToken).Symbol, parameter)))
        {
            SyntaxNode target = use.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Invoke" } invoke && invoke.Expression == use ? invoke : use;
            if (target.Parent is not InvocationExpressionSyntax invocation || invocation.Expression != target)
            {
                return $"{method.Name} uses {parameter.Name} other than by calling it at {context.Where(use)}: change the delegate by hand";
            }
            invocations.Add(invocation);
        }
        // Every argument given for the parameter in the solution: each must return a task after the change.
        var others = new List<(LambdaExpressionSyntax Lambda, ITypeSymbol Result)>();
        foreach (var location in (await SymbolFinder.FindReferencesAsync(method, context.Solution, context.CancellationToken).ConfigureAwait(false)).SelectMany(r => r.Locations).Select(l => l.Location))
        {
            var root = await location.SourceTree!.GetRootAsync(context.CancellationToken).ConfigureAwait(false);
            var name = root.FindNode(location.SourceSpan, getInnermostNodeForTie: true);
            var site = name.Parent is MemberAccessExpressionSyntax ma && ma.Name == name ? ma : name;
            if (site.Parent is not InvocationExpressionSyntax other || other.Expression != site)
            {
                return $"{method.Name} is used other than by a call at {context.Where(name)}: change the delegate by hand";
            }
            var otherModel = await context.ModelAsync(other.SyntaxTree).ConfigureAwait(false);
            var given = other.ArgumentList.Arguments.FirstOrDefault(a => otherModel.GetSymbolInfo(other, context.CancellationToken).Symbol is IMethodSymbol m
                && SymbolEqualityComparer.Default.Equals(ParameterOf(m, a)?.OriginalDefinition, parameter));
            if (given is null || given.Expression == lambda || context.Changes.Containers.ContainsKey(given.Expression))
            {
                continue;
            }
            if (given.Expression is not LambdaExpressionSyntax { ExpressionBody: not null, AsyncKeyword.RawKind: 0 } plain
                || otherModel.GetSymbolInfo(plain, context.CancellationToken).Symbol is not IMethodSymbol { ReturnType: { } result })
            {
                return $"{method.Name} is also given {given.Expression} for {parameter.Name} at {context.Where(given)}, which tplab cannot turn into a Func returning a task: change it by hand";
            }
            others.Add((plain, result));
        }
        _changed.Add(parameter);
        var task = context.TaskName(methodModel, parameterSyntax);
        context.Changes.Replace(parameterSyntax.Type!, n => TaskResult((TypeSyntax)n, task));
        foreach (var (plain, result) in others)
        {
            var otherTask = context.TaskName(await context.ModelAsync(plain.SyntaxTree).ConfigureAwait(false), plain);
            var resultName = result.ToMinimalDisplayString(await context.ModelAsync(plain.SyntaxTree).ConfigureAwait(false), plain.SpanStart);
            context.Changes.Replace(plain.ExpressionBody!, n => ParseExpression($"{otherTask}.FromResult<{resultName}>({n.WithoutTrivia()})").WithTriviaFrom(n));
        }
        context.Changes.Containers[lambda] = new ContainerChange();
        foreach (var invocation in invocations)
        {
            await callers.AwaitOrBlockAsync(methodModel, invocation).ConfigureAwait(false);
        }
        return null;
    }

    private static IParameterSymbol? ParameterOf(IMethodSymbol method, ArgumentSyntax argument)
    {
        if (argument.NameColon is { } named)
        {
            return method.Parameters.FirstOrDefault(p => p.Name == named.Name.Identifier.ValueText);
        }
        var index = ((ArgumentListSyntax)argument.Parent!).Arguments.IndexOf(argument);
        return index < method.Parameters.Length && !method.Parameters[index].IsParams ? method.Parameters[index] : null;
    }

    // Func<A, T> → Func<A, Task<T>>: the last type argument wrapped.
    private static TypeSyntax TaskResult(TypeSyntax type, string task)
    {
        var generic = type as GenericNameSyntax ?? (GenericNameSyntax)((QualifiedNameSyntax)type).Right;
        var last = generic.TypeArgumentList.Arguments[^1];
        var wrapped = ParseTypeName($"{task}<{last.WithoutTrivia()}>").WithTriviaFrom(last);
        var changed = generic.WithTypeArgumentList(generic.TypeArgumentList.WithArguments(generic.TypeArgumentList.Arguments.Replace(last, wrapped)));
        return type is QualifiedNameSyntax q ? q.WithRight(changed) : changed;
    }
}
