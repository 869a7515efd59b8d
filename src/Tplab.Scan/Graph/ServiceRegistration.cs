using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// One DI registration as source writes it: the service type, what it hands out (implementation types, other services
/// a factory forwards to), whether source cannot tell (open), the lifetime, and the type DI constructs itself when it
/// is a type registration (not a factory or an instance).
/// </summary>
internal sealed class ServiceRegistration(INamedTypeSymbol service, string? lifetime)
{
    public const string DiNamespace = "Microsoft.Extensions.DependencyInjection";

    private static readonly HashSet<string> ResolveNames = new(StringComparer.Ordinal) { "GetService", "GetRequiredService", "GetKeyedService", "GetRequiredKeyedService" };

    public INamedTypeSymbol Service { get; } = service;

    /// <summary><c>singleton</c>, <c>scoped</c> or <c>transient</c>, or null when source does not say.</summary>
    public string? Lifetime { get; } = lifetime;

    public List<INamedTypeSymbol> Implementations { get; } = [];

    /// <summary>Other services a factory hands on (<c>sp =&gt; sp.GetRequiredService&lt;Foo&gt;()</c>).</summary>
    public List<INamedTypeSymbol> Aliases { get; } = [];

    /// <summary>Source cannot tell what it hands out (a factory returning an interface, a type in a variable).</summary>
    public bool Open { get; set; }

    /// <summary>
    /// The implementation is one of several chosen when the app starts: the registration sits under an <c>if</c>, a
    /// <c>switch</c> or a <c>?:</c> (on configuration, the environment), or its factory picks one by such a condition.
    /// Each deployment runs one of them on every call, not one call in N.
    /// </summary>
    public bool Chosen { get; set; }

    /// <summary>The type DI builds by calling its constructor, for a type registration.</summary>
    public INamedTypeSymbol? Constructed { get; set; }

    /// <summary>The registration a DI call or <c>new ServiceDescriptor(...)</c> makes, or null when it is not one source can read.</summary>
    public static ServiceRegistration? Read(SemanticModel model, SyntaxNode syntax)
    {
        var (method, arguments) = model.GetOperation(syntax) switch
        {
            IInvocationOperation i => (i.TargetMethod, i.Arguments),
            IObjectCreationOperation { Constructor: { } c } o => (c, o.Arguments),
            _ => (null, default),
        };
        if (method?.ContainingType is not { } owner || !Ops.NameOf(owner).StartsWith(DiNamespace, StringComparison.Ordinal))
        {
            return null;
        }
        var typeArguments = method.TypeParameters.Zip(method.TypeArguments).ToList();
        var service = typeArguments.FirstOrDefault(p => p.First.Name == "TService").Second as INamedTypeSymbol
            ?? TypeOf(Argument(arguments, "serviceType"));
        if (service is null || service.TypeKind == TypeKind.Error)
        {
            return null;
        }
        var entry = new ServiceRegistration(service, LifetimeOf(method, arguments)) { Chosen = UnderCondition(syntax) };
        var implementation = typeArguments.FirstOrDefault(p => p.First.Name == "TImplementation").Second as INamedTypeSymbol
            ?? TypeOf(Argument(arguments, "implementationType"));
        var instance = Ops.Unwrap(Argument(arguments, "implementationInstance"));
        var factory = Ops.Unwrap(Argument(arguments, "implementationFactory"));
        if (implementation is not null)
        {
            entry.Implementations.Add(implementation);
            entry.Constructed = factory is null ? implementation : null;
        }
        else if (Argument(arguments, "implementationType") is not null)
        {
            // AddScoped(typeof(IStore), type): a type source cannot name.
            entry.Open = true;
        }
        else if (instance is not null)
        {
            ReadValue(instance, entry, null);
        }
        else if (factory is not null)
        {
            if (factory is IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda })
            {
                foreach (var returned in lambda.Body.DescendantsAndSelf().OfType<IReturnOperation>().Where(r => r.ReturnedValue is not null))
                {
                    ReadValue(returned.ReturnedValue!, entry, lambda.Body);
                }
            }
            else
            {
                entry.Open = true;
            }
        }
        else
        {
            // AddScoped<Foo>(), AddScoped(typeof(Foo)): the type is its own implementation.
            entry.Implementations.Add(service);
            entry.Constructed = service;
        }
        return entry;
    }

    // What a factory returns or an instance is: a concrete type, another service (GetRequiredService<T>), or unknown (open).
    private static void ReadValue(IOperation value, ServiceRegistration entry, IOperation? body, int depth = 0)
    {
        value = Ops.Unwrap(value) ?? value;
        switch (value)
        {
            case ISwitchExpressionOperation s when depth < 4:
                entry.Chosen = true;
                foreach (var arm in s.Arms)
                {
                    ReadValue(arm.Value, entry, body, depth + 1);
                }
                return;
            case IConditionalOperation c when depth < 4:
                entry.Chosen = true;
                ReadValue(c.WhenTrue, entry, body, depth + 1);
                if (c.WhenFalse is not null)
                {
                    ReadValue(c.WhenFalse, entry, body, depth + 1);
                }
                return;
            case ICoalesceOperation c when depth < 4:
                ReadValue(c.Value, entry, body, depth + 1);
                ReadValue(c.WhenNull, entry, body, depth + 1);
                return;
            case ILocalReferenceOperation l when body is not null && depth < 4:
                var values = Ops.ValuesOf(l.Local, body).ToList();
                if (values.Count == 0)
                {
                    entry.Open = true;
                }
                foreach (var v in values)
                {
                    ReadValue(v, entry, body, depth + 1);
                }
                return;
            case IInvocationOperation { TargetMethod: { IsGenericMethod: true } m } when ResolveNames.Contains(m.Name) && m.TypeArguments[0] is INamedTypeSymbol asked:
                entry.Aliases.Add(asked);
                return;
        }
        if (value.Type is INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct, IsAbstract: false } concrete)
        {
            entry.Implementations.Add(concrete);
        }
        else
        {
            entry.Open = true;
        }
    }

    // Under a branch of the method that registers it: an if (either side), a switch section or arm, a ?: side.
    private static bool UnderCondition(SyntaxNode syntax)
    {
        foreach (var node in syntax.Ancestors())
        {
            switch (node)
            {
                case IfStatementSyntax or ElseClauseSyntax or SwitchSectionSyntax or SwitchExpressionArmSyntax:
                    return true;
                case ConditionalExpressionSyntax c when c.Condition.Span.End <= syntax.SpanStart:
                    return true;
                case MemberDeclarationSyntax or LocalFunctionStatementSyntax or AnonymousFunctionExpressionSyntax:
                    return false;
            }
        }
        return false;
    }

    // AddSingleton, ServiceDescriptor.Scoped, Describe(..., ServiceLifetime.Transient): singleton, scoped or transient.
    private static string? LifetimeOf(IMethodSymbol method, ImmutableArray<IArgumentOperation> arguments)
    {
        foreach (var lifetime in new[] { "Singleton", "Scoped", "Transient" })
        {
            if (method.Name.Contains(lifetime, StringComparison.Ordinal))
            {
                return lifetime.ToLowerInvariant();
            }
        }
        return Argument(arguments, "lifetime")?.ConstantValue is { HasValue: true, Value: int value } ? value switch { 0 => "singleton", 1 => "scoped", 2 => "transient", _ => null } : null;
    }

    private static IOperation? Argument(ImmutableArray<IArgumentOperation> arguments, string name) =>
        arguments.IsDefault ? null : arguments.FirstOrDefault(a => a.Parameter?.Name == name && a.ArgumentKind != ArgumentKind.DefaultValue)?.Value;

    // typeof(Repository<>) is Roslyn's unbound generic type: it has no base type and no interfaces, so nothing could
    // tell what it implements (a member inherited from RepositoryWithTypedId<T, long> reached nothing). Its definition has them.
    private static INamedTypeSymbol? TypeOf(IOperation? operation) =>
        Ops.Unwrap(operation) is ITypeOfOperation { TypeOperand: INamedTypeSymbol t } ? (t.IsUnboundGenericType ? t.OriginalDefinition : t) : null;

}
