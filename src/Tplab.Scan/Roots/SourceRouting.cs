using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// Roslyn's side of the one route model (<see cref="MvcRouteModel"/>): a controller's and an action's attributes, level
/// by level, each as a <see cref="RoutingAttribute"/>. An app's own attribute class is followed through its constructors
/// (<c>: base("api/v3/" + resource)</c>, default parameter values, property setters in the body) down to the ASP.NET
/// Core class it derives from; what the source computes in a way this cannot follow is unknown.
/// </summary>
internal sealed class SourceRouting(Func<SyntaxTree, SemanticModel?> models)
{
    private const string AspNet = "Microsoft.AspNetCore.";
    private const int MaxChain = 8;

    /// <summary>The concrete controller: its own attributes, then each base class's.</summary>
    public RoutedMember Controller(INamedTypeSymbol type)
    {
        var levels = new List<IReadOnlyList<RoutingAttribute>>();
        for (var t = type; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            levels.Add([.. t.GetAttributes().Select(Read)]);
        }
        return new RoutedMember(type.Name, levels);
    }

    /// <summary>The action: its own attributes, then those of each method it overrides.</summary>
    public RoutedMember Action(IMethodSymbol method)
    {
        var levels = new List<IReadOnlyList<RoutingAttribute>>();
        for (var m = method; m is not null; m = m.OverriddenMethod)
        {
            levels.Add([.. m.GetAttributes().Select(Read)]);
        }
        return new RoutedMember(method.Name, levels);
    }

    public RoutingAttribute Read(AttributeData attribute)
    {
        if (attribute.AttributeClass is not { } type)
        {
            return new RoutingAttribute("", null, [], new Dictionary<string, AttributeValue>(), []);
        }
        var framework = Chain(type).FirstOrDefault(IsAspNet);
        var properties = new Dictionary<string, AttributeValue>(StringComparer.Ordinal);
        var arguments = framework is null ? [] : Arguments(attribute, framework, properties);
        if (framework is null)
        {
            Getters(type, properties);
        }
        foreach (var (name, value) in attribute.NamedArguments)
        {
            properties[name] = Value(value);
        }
        return new RoutingAttribute(SymbolNames.MetadataName(type), framework is null ? null : SymbolNames.MetadataName(framework), arguments, properties,
            [.. type.AllInterfaces.Select(i => SymbolNames.MetadataName(i))]);
    }

    // The applied constructor's arguments, carried through each `: base(...)` down to the framework class's constructor.
    private IReadOnlyList<AttributeValue> Arguments(AttributeData attribute, INamedTypeSymbol framework, Dictionary<string, AttributeValue> properties)
    {
        var values = attribute.ConstructorArguments.Select(Value).ToList();
        var ctor = attribute.AttributeConstructor;
        for (var depth = 0; ctor is not null && depth < MaxChain; depth++)
        {
            if (SymbolEqualityComparer.Default.Equals(ctor.ContainingType, framework))
            {
                return values;
            }
            var env = new Dictionary<ISymbol, AttributeValue>(SymbolEqualityComparer.Default);
            for (var i = 0; i < ctor.Parameters.Length; i++)
            {
                env[ctor.Parameters[i]] = i < values.Count ? values[i] : AttributeValue.Unknown;
            }
            if (BaseCall(ctor, env, properties) is not { } next)
            {
                return [AttributeValue.Unknown, AttributeValue.Unknown];
            }
            (ctor, values) = next;
        }
        return [AttributeValue.Unknown, AttributeValue.Unknown];
    }

    // The base constructor a source constructor calls and what it hands it; the properties its body sets on the way.
    private (IMethodSymbol, List<AttributeValue>)? BaseCall(IMethodSymbol ctor, Dictionary<ISymbol, AttributeValue> env, Dictionary<string, AttributeValue> properties)
    {
        var syntax = ctor.DeclaringSyntaxReferences.Select(r => r.GetSyntax()).FirstOrDefault();
        var node = syntax switch
        {
            ConstructorDeclarationSyntax c => (SyntaxNode)c,
            TypeDeclarationSyntax { BaseList.Types: [PrimaryConstructorBaseTypeSyntax primary, ..] } => primary,
            _ => null,
        };
        if (syntax is null)
        {
            // Implicit constructor: the base's parameterless one.
            return ctor.IsImplicitlyDeclared && ctor.ContainingType.BaseType?.InstanceConstructors.FirstOrDefault(c => c.Parameters.Length == 0) is { } parameterless
                ? (parameterless, [])
                : null;
        }
        if (node is null || models(node.SyntaxTree) is not { } model)
        {
            return ctor.ContainingType.BaseType?.InstanceConstructors.FirstOrDefault(c => c.Parameters.Length == 0) is { } implicitBase && syntax is TypeDeclarationSyntax
                ? (implicitBase, [])
                : null;
        }
        FactDependencies.File(node.SyntaxTree);
        var operation = model.GetOperation(node);
        var call = operation switch
        {
            IConstructorBodyOperation body => body.Initializer?.DescendantsAndSelf().OfType<IInvocationOperation>().FirstOrDefault(i => i.TargetMethod.MethodKind == MethodKind.Constructor),
            IInvocationOperation invocation => invocation,
            _ => null,
        };
        if (operation is IConstructorBodyOperation { BlockBody: { } block })
        {
            foreach (var set in block.Operations.OfType<IExpressionStatementOperation>().Select(e => e.Operation).OfType<ISimpleAssignmentOperation>())
            {
                if (set.Target is IPropertyReferenceOperation { Instance: IInstanceReferenceOperation } property)
                {
                    properties[property.Property.Name] = Evaluate(set.Value, env);
                }
            }
        }
        if (call is null)
        {
            return ctor.ContainingType.BaseType?.InstanceConstructors.FirstOrDefault(c => c.Parameters.Length == 0) is { } implicitBase ? (implicitBase, []) : null;
        }
        var arguments = call.TargetMethod.Parameters.Select(p => call.Arguments.FirstOrDefault(a => SymbolEqualityComparer.Default.Equals(a.Parameter, p)) is { } a
            ? Evaluate(a.Value, env) : AttributeValue.Unknown).ToList();
        return (call.TargetMethod, arguments);
    }

    // An app's own provider: the getters it writes as expressions the source shows (`public string Template => "api/x";`).
    private void Getters(INamedTypeSymbol type, Dictionary<string, AttributeValue> properties)
    {
        foreach (var name in new[] { "Template", "Order", "Name", "HttpMethods", "RouteKey", "RouteValue" })
        {
            var property = Chain(type).SelectMany(t => t.GetMembers(name)).OfType<IPropertySymbol>().FirstOrDefault();
            var syntax = property?.DeclaringSyntaxReferences.Select(r => r.GetSyntax()).OfType<PropertyDeclarationSyntax>().FirstOrDefault();
            var expression = syntax?.ExpressionBody?.Expression
                ?? syntax?.AccessorList?.Accessors.FirstOrDefault(a => a.Keyword.ValueText == "get")?.ExpressionBody?.Expression
                ?? syntax?.Initializer?.Value;
            FactDependencies.File(expression?.SyntaxTree);
            if (expression is not null && models(expression.SyntaxTree)?.GetOperation(expression) is { } value)
            {
                properties[name] = Evaluate(value, []);
            }
        }
    }

    private static AttributeValue Evaluate(IOperation? operation, Dictionary<ISymbol, AttributeValue> env)
    {
        switch (operation)
        {
            case null:
                return AttributeValue.Unknown;
            case { ConstantValue.HasValue: true }:
                return new AttributeValue(operation.ConstantValue.Value);
            case IConversionOperation conversion:
                return Evaluate(conversion.Operand, env);
            case IParameterReferenceOperation parameter:
                return env.TryGetValue(parameter.Parameter, out var v) ? v : AttributeValue.Unknown;
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Add } add:
                return Concat([Evaluate(add.LeftOperand, env), Evaluate(add.RightOperand, env)]);
            case IInterpolatedStringOperation interpolated:
                return Concat(interpolated.Parts.Select(p => p switch
                {
                    IInterpolatedStringTextOperation text => Evaluate(text.Text, env),
                    IInterpolationOperation { Alignment: null, FormatString: null } hole => Evaluate(hole.Expression, env),
                    _ => AttributeValue.Unknown,
                }));
            case IArrayCreationOperation { Initializer: { } initializer }:
                return List(initializer.ElementValues.Select(e => Evaluate(e, env)));
            case ICollectionExpressionOperation collection:
                return List(collection.Elements.Select(e => Evaluate(e, env)));
            default:
                return AttributeValue.Unknown;
        }
    }

    private static AttributeValue Concat(IEnumerable<AttributeValue> parts)
    {
        var list = parts.ToList();
        return list.All(p => p.Known && p.Value is null or string) ? new AttributeValue(string.Concat(list.Select(p => p.Text))) : AttributeValue.Unknown;
    }

    private static AttributeValue List(IEnumerable<AttributeValue> items)
    {
        var list = items.ToList();
        return list.All(i => i is { Known: true, Value: string }) ? new AttributeValue(list.Select(i => i.Text!).ToList()) : AttributeValue.Unknown;
    }

    private static AttributeValue Value(TypedConstant constant) => constant.Kind switch
    {
        TypedConstantKind.Array => constant.IsNull ? AttributeValue.Null : List(constant.Values.Select(Value)),
        TypedConstantKind.Error => AttributeValue.Unknown,
        _ => new AttributeValue(constant.Value),
    };

    private static IEnumerable<INamedTypeSymbol> Chain(INamedTypeSymbol type)
    {
        for (var t = type; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            yield return t;
        }
    }

    private static bool IsAspNet(INamedTypeSymbol type) => SymbolNames.MetadataName(type).StartsWith(AspNet, StringComparison.Ordinal);
}
