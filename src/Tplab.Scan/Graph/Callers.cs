using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// The calls of a source method across the solution, found by name in the syntax and then bound: what a parameter
/// receives at each call (a route group passed to a helper, a stream passed to a parser).
/// </summary>
internal sealed class Callers(SourceIndex index) : IArgumentSource
{
    // Every call of the solution by the name it calls, kept as its place (tree and span), never as its syntax node: a
    // node holds its red tree up to the root, so keeping every call's node kept the whole solution's syntax realised
    // for the scan (BENCHMARKS.md, "Scan speed"). A call is found again from its place when a name is asked.
    private readonly Lazy<ILookup<string, (SyntaxTree Tree, TextSpan Span)>> _byName = new(() =>
        index.PerTree(t => t.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>().Select(i => (Name: NameOf(i), Place: (t, i.Span))).ToList(), CancellationToken.None)
            .SelectMany(x => x).ToLookup(x => x.Name, x => x.Place, StringComparer.Ordinal));

    private static string NameOf(InvocationExpressionSyntax invocation) => invocation.Expression switch
    {
        MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
        IdentifierNameSyntax n => n.Identifier.ValueText,
        GenericNameSyntax g => g.Identifier.ValueText,
        MemberBindingExpressionSyntax b => b.Name.Identifier.ValueText,
        _ => "",
    };

    // The call at a place: the innermost invocation, creation or constructor initializer with its span (an argument
    // wrapping it has the same span).
    private static SyntaxNode? Found((SyntaxTree Tree, TextSpan Span) place) =>
        place.Tree.GetRoot().FindNode(place.Span, getInnermostNodeForTie: true).AncestorsAndSelf()
            .FirstOrDefault(n => n.Span == place.Span && n is InvocationExpressionSyntax or ObjectCreationExpressionSyntax or ConstructorInitializerSyntax);

    // Constructor calls by the type's name: new T(…) and this(…)/base(…) in a constructor of the type (target-typed
    // new(…) names no type: not found, as a call through a delegate is not).
    private readonly Lazy<ILookup<string, (SyntaxTree Tree, TextSpan Span)>> _created = new(() =>
        index.PerTree(t => t.GetRoot().DescendantNodes().Where(n => n is ObjectCreationExpressionSyntax or ConstructorInitializerSyntax)
                .Select(n => (Node: n, Place: (t, n.Span))).ToList(), CancellationToken.None)
            .SelectMany(x => x).ToLookup(x => x.Node switch
            {
                ObjectCreationExpressionSyntax c => TypeName(c.Type),
                ConstructorInitializerSyntax { Parent: ConstructorDeclarationSyntax { Parent: BaseTypeDeclarationSyntax type } } i
                    when i.IsKind(Microsoft.CodeAnalysis.CSharp.SyntaxKind.ThisConstructorInitializer) => type.Identifier.ValueText,
                ConstructorInitializerSyntax { Parent: ConstructorDeclarationSyntax { Parent: TypeDeclarationSyntax { BaseList.Types: [var first, ..] } } } => TypeName(first.Type),
                _ => "",
            }, x => x.Place, StringComparer.Ordinal));

    private static string TypeName(TypeSyntax type) => type switch
    {
        QualifiedNameSyntax q => TypeName(q.Right),
        AliasQualifiedNameSyntax a => TypeName(a.Name),
        GenericNameSyntax g => g.Identifier.ValueText,
        IdentifierNameSyntax n => n.Identifier.ValueText,
        _ => "",
    };

    /// <summary>The arguments passed for <paramref name="parameter"/> at every call of its method or constructor, each with its body's root operation.</summary>
    public IEnumerable<(IOperation Value, IOperation Body)> ArgumentsFor(IParameterSymbol parameter)
    {
        if (parameter.ContainingSymbol is not IMethodSymbol { MethodKind: MethodKind.Ordinary or MethodKind.Constructor } method)
        {
            yield break;
        }
        var definition = SymbolNames.Definition(method);
        var constructor = method.MethodKind == MethodKind.Constructor;
        FactDependencies.CallsOf(constructor ? method.ContainingType.Name : method.Name, constructor);
        IEnumerable<(SyntaxTree Tree, TextSpan Span)> places = constructor ? _created.Value[method.ContainingType.Name] : _byName.Value[method.Name];
        var (least, most) = Arity(method);
        foreach (var place in places)
        {
            // A call whose count of arguments the method cannot take is another method's: not bound (binding is the cost).
            var found = Found(place);
            if (found is not null && ArgumentCount(found) is { } count && (count < least || count > most))
            {
                continue;
            }
            var (target, arguments) = (found is { } syntax ? index.Model(syntax.SyntaxTree).GetOperation(syntax) : null) switch
            {
                IInvocationOperation i => (i.TargetMethod, i.Arguments),
                IObjectCreationOperation { Constructor: { } c } o => (c, o.Arguments),
                _ => (null, default),
            };
            // A call from another project binds to the method's retargeted twin in that project's compilation: the same
            // method by its key and assembly (PagedList's constructor called from a service project).
            if (target is null || !Same(SymbolNames.Definition(target), definition))
            {
                continue;
            }
            var argument = arguments.FirstOrDefault(a => a.Parameter?.Ordinal == parameter.Ordinal);
            if (argument is not null)
            {
                var root = (IOperation)argument;
                while (root.Parent is not null)
                {
                    root = root.Parent;
                }
                yield return (argument.Value, root);
            }
        }
    }

    // How many arguments a call of the method can pass in its syntax: every required parameter at least (one fewer for
    // an extension method called on its receiver), at most every parameter unless it takes a params array or __arglist.
    private static (int Least, int Most) Arity(IMethodSymbol method)
    {
        var required = method.Parameters.Count(p => !p.IsOptional && !p.IsParams);
        var least = method.IsExtensionMethod ? Math.Max(0, required - 1) : required;
        var most = method.IsVararg || method.Parameters.Any(p => p.IsParams) ? int.MaxValue : method.Parameters.Length;
        return (least, most);
    }

    private static int? ArgumentCount(SyntaxNode call) => call switch
    {
        InvocationExpressionSyntax i => i.ArgumentList.Arguments.Count,
        ObjectCreationExpressionSyntax c => c.ArgumentList?.Arguments.Count ?? 0,
        ConstructorInitializerSyntax c => c.ArgumentList.Arguments.Count,
        _ => null,
    };

    /// <summary>The files that call methods named <paramref name="name"/> (<paramref name="constructor"/>: that create the type so named), found by name in the syntax.</summary>
    public IReadOnlyList<string> FilesCalling(string name, bool constructor) =>
        [.. (constructor ? _created.Value[name] : _byName.Value[name]).Select(p => p.Tree.FilePath).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];

    private static bool Same(IMethodSymbol called, IMethodSymbol definition) =>
        SymbolEqualityComparer.Default.Equals(called, definition)
        || (SymbolNames.Key(called) == SymbolNames.Key(definition) && called.ContainingAssembly?.Name == definition.ContainingAssembly?.Name);

    /// <inheritdoc/>
    public IReadOnlyList<(IOperation Value, IOperation Body)> ReturnedBy(IMethodSymbol method) => Returned(method, depth: 0);

    public IReadOnlyList<(IOperation Value, IOperation Body)> AssignedTo(IFieldSymbol field)
    {
        foreach (var reference in field.ContainingType?.DeclaringSyntaxReferences ?? [])
        {
            FactDependencies.File(reference.SyntaxTree);
        }
        return _assigned.GetOrAdd(field.OriginalDefinition.GetDocumentationCommentId() ?? field.ToDisplayString(), _ => Assignments(field));
    }

    private readonly System.Collections.Concurrent.ConcurrentDictionary<string, List<(IOperation Value, IOperation Body)>> _assigned = new(StringComparer.Ordinal);

    private List<(IOperation Value, IOperation Body)> Assignments(IFieldSymbol field)
    {
        var result = new List<(IOperation, IOperation)>();
        foreach (var reference in field.ContainingType?.DeclaringSyntaxReferences ?? [])
        {
            if (!index.IsSource(field.ContainingType))
            {
                break;
            }
            var model = index.Model(reference.SyntaxTree);
            foreach (var syntax in reference.GetSyntax().DescendantNodes().Where(n => n is AssignmentExpressionSyntax a && a.Left.ToString().EndsWith(field.Name, StringComparison.Ordinal)
                || n is VariableDeclaratorSyntax v && v.Identifier.ValueText == field.Name))
            {
                switch (model.GetOperation(syntax))
                {
                    case ISimpleAssignmentOperation { Target: IFieldReferenceOperation target } assignment when target.Field.Name == field.Name:
                        result.Add((assignment.Value, RootOf(assignment)));
                        break;
                }
                if (syntax is VariableDeclaratorSyntax { Initializer: { } initializer } && model.GetOperation(initializer) is IFieldInitializerOperation fieldInit)
                {
                    result.Add((fieldInit.Value, fieldInit));
                }
            }
        }
        return result;
    }

    private List<(IOperation Value, IOperation Body)> Returned(IMethodSymbol method, int depth)
    {
        var result = new List<(IOperation, IOperation)>();
        if (method.ReturnsVoid || method.IsExtern || depth > 2)
        {
            return result;
        }
        // An interface's or abstract method's query: what its implementations return (a repository behind its interface).
        if (method.IsAbstract || method.ContainingType?.TypeKind == TypeKind.Interface)
        {
            foreach (var implementation in index.Implementations(SymbolNames.Definition(method)).Take(4))
            {
                result.AddRange(Returned(implementation, depth + 1));
            }
            return result;
        }
        if (method.DeclaringSyntaxReferences.Length > 0 && index.NodeFor(method) is { } node)
        {
            FactDependencies.File(node.Syntax.SyntaxTree);
            return (List<(IOperation, IOperation)>)index.Memo.GetOrAdd((node, "returned"), _ => ReturnedBy(node))!;
        }
        return result;
    }

    private static IOperation RootOf(IOperation op)
    {
        while (op.Parent is not null)
        {
            op = op.Parent;
        }
        return op;
    }

    private List<(IOperation Value, IOperation Body)> ReturnedBy(CodeNode node)
    {
        var result = new List<(IOperation, IOperation)>();
        var body = index.Model(node.Syntax.SyntaxTree).GetOperation(node.Syntax);
        if (body is null)
        {
            return result;
        }
        foreach (var ret in body.DescendantsAndSelf().OfType<IReturnOperation>())
        {
            if (ret.ReturnedValue is { } value && !ret.Ancestors().Any(a => a is IAnonymousFunctionOperation or ILocalFunctionOperation))
            {
                result.Add((value, body));
            }
        }
        return result;
    }
}
