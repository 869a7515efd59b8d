using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// What dependency injection can hand out for a service type: the implementation types its registrations name
/// (<c>AddScoped&lt;IFoo, Foo&gt;()</c>, <c>AddScoped(typeof(IRepo&lt;&gt;), typeof(Repo&lt;&gt;))</c>, an instance, a factory's
/// <c>new</c> or <c>GetRequiredService&lt;T&gt;()</c>, <c>TryAdd*</c>, <c>ServiceDescriptor</c>), plus the solution's types
/// that implement it and that source constructs itself (<c>new</c>, <c>ActivatorUtilities.CreateInstance</c>: a decorator's
/// inner instance). A service is <b>open</b> (nothing narrowed) when one of its registrations cannot be read, or when the
/// source names it outside DI (<c>typeof(IFoo).IsAssignableFrom</c>, <c>GetExports&lt;IFoo&gt;()</c>, assembly scanning):
/// then its implementations may come from anywhere.
/// </summary>
internal sealed class ServiceRegistry
{
    private static readonly HashSet<string> RegistrationNames = new(StringComparer.Ordinal)
    {
        "AddSingleton", "AddScoped", "AddTransient", "TryAddSingleton", "TryAddScoped", "TryAddTransient",
        "AddKeyedSingleton", "AddKeyedScoped", "AddKeyedTransient", "TryAddKeyedSingleton", "TryAddKeyedScoped", "TryAddKeyedTransient",
        "Singleton", "Scoped", "Transient", "Describe", "KeyedSingleton", "KeyedScoped", "KeyedTransient",
    };

    private static readonly HashSet<string> CreateNames = new(StringComparer.Ordinal) { "CreateInstance", "GetServiceOrCreateInstance", "CreateFactory" };

    private readonly Dictionary<string, Service> _services = new(StringComparer.Ordinal);
    // The answer depends on the open type only (every question is by metadata name): asked once per call site otherwise.
    private readonly ConcurrentDictionary<string, List<INamedTypeSymbol>?> _possible = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<(INamedTypeSymbol Type, string Lifetime)>> _byType = new(StringComparer.Ordinal);
    private readonly HashSet<string> _constructed = new(StringComparer.Ordinal);
    private readonly HashSet<string> _typeOfNames = new(StringComparer.Ordinal);
    private bool _constructsByType;
    private readonly SourceIndex _index;

    public ServiceRegistry(SourceIndex index)
    {
        _index = index;
        var mentions = new List<SyntaxNode>();
        // Each file read (and its registrations bound) on its own, one per core; then noted in the files' order.
        foreach (var (node, registration, created) in index.PerTree(Candidates, CancellationToken.None).SelectMany(c => c))
        {
            switch (node)
            {
                case InvocationExpressionSyntax call:
                    Note(registration);
                    if (CreateNames.Contains(NameOf(call.Expression)!))
                    {
                        Constructed(call);
                    }
                    break;
                case ObjectCreationExpressionSyntax creation:
                    _constructed.Add(SimpleName(creation.Type));
                    Note(registration);
                    break;
                case ImplicitObjectCreationExpressionSyntax:
                    if (created is not null)
                    {
                        _constructed.Add(created);
                    }
                    break;
                default:
                    mentions.Add(node);
                    if (node is TypeOfExpressionSyntax typeOf)
                    {
                        _typeOfNames.Add(SimpleName(typeOf.Type));
                    }
                    break;
            }
        }
        var serviceNames = _services.Values.Select(s => s.Name).ToHashSet(StringComparer.Ordinal);
        if (_constructsByType)
        {
            // CreateInstance(provider, type) with a Type in a variable: any type the source names in a typeof may be built.
            _constructed.UnionWith(_typeOfNames);
        }
        // Bound one per core (each binds its call), then noted.
        foreach (var type in index.Each([.. mentions.Where(m => MentionedNames(m).Any(serviceNames.Contains))], Scanned, CancellationToken.None).SelectMany(t => t))
        {
            if (_services.TryGetValue(SymbolNames.MetadataName(type), out var service))
            {
                service.Open = true;
            }
        }
    }

    /// <summary>
    /// Everything the registry read from the solution, in one line per fact (the same registrations and <c>new</c>s give
    /// the same text): an incremental scan re-walks only some entry points when it is what the cached scan's was.
    /// </summary>
    public IEnumerable<string> Facts()
    {
        static string Names(IEnumerable<INamedTypeSymbol> types) => string.Join(",", types.Select(SymbolNames.MetadataName));
        foreach (var (key, service) in _services.OrderBy(s => s.Key, StringComparer.Ordinal))
        {
            yield return $"service {key} {service.Name} [{Names(service.Implementations)}] [{Names(service.Aliases)}] open={service.Open} unchosen={service.Unchosen}";
        }
        foreach (var (key, types) in _byType.OrderBy(s => s.Key, StringComparer.Ordinal))
        {
            yield return $"type {key} [{string.Join(",", types.Select(t => SymbolNames.MetadataName(t.Type) + " " + t.Lifetime))}]";
        }
        yield return "constructed " + string.Join(",", _constructed.Order(StringComparer.Ordinal)) + " by-type=" + _constructsByType;
        yield return "typeof " + string.Join(",", _typeOfNames.Order(StringComparer.Ordinal));
    }

    /// <summary>
    /// The types DI constructs itself when <paramref name="service"/> is asked for (type registrations, not factories
    /// or instances), with their lifetime: resolving the service runs their constructor.
    /// </summary>
    public IReadOnlyList<(INamedTypeSymbol Type, string Lifetime)> ConstructedFor(INamedTypeSymbol service) =>
        _byType.GetValueOrDefault(SymbolNames.MetadataName(service)) ?? [];

    /// <summary>
    /// Whether what DI hands out for <paramref name="type"/> is picked when the app starts (every registration of it
    /// under a condition, or a factory choosing by one): each deployment runs one implementation on every call.
    /// </summary>
    public bool ChosenAtStartup(INamedTypeSymbol type) =>
        _services.TryGetValue(SymbolNames.MetadataName(type), out var service) && !service.Open && !service.Unchosen
        && service.Implementations.Count + service.Aliases.Count > 0;

    /// <summary>
    /// The concrete types an object of static type <paramref name="type"/> can be when it came from DI or from the
    /// solution's own <c>new</c>; null when nothing narrows it (not registered, or open).
    /// </summary>
    public IReadOnlyList<INamedTypeSymbol>? PossibleTypes(INamedTypeSymbol type) =>
        _possible.GetOrAdd(SymbolNames.MetadataName(type), _ => FindPossibleTypes(type));

    private List<INamedTypeSymbol>? FindPossibleTypes(INamedTypeSymbol type)
    {
        var found = new List<INamedTypeSymbol>();
        if (!Collect(type, found, new HashSet<string>(StringComparer.Ordinal)))
        {
            return null;
        }
        foreach (var t in _index.Types)
        {
            if (!t.IsAbstract && t.TypeKind is TypeKind.Class or TypeKind.Struct && _constructed.Contains(t.Name) && IsA(t, type)
                && !found.Any(f => SymbolNames.MetadataName(f) == SymbolNames.MetadataName(t)))
            {
                found.Add(t);
            }
        }
        return found;
    }

    private bool Collect(INamedTypeSymbol type, List<INamedTypeSymbol> found, HashSet<string> seen)
    {
        var key = SymbolNames.MetadataName(type);
        if (!seen.Add(key))
        {
            return true;
        }
        if (!_services.TryGetValue(key, out var service) || service.Open)
        {
            return false;
        }
        foreach (var implementation in service.Implementations)
        {
            if (!found.Any(f => SymbolNames.MetadataName(f) == SymbolNames.MetadataName(implementation)))
            {
                found.Add(implementation);
            }
        }
        foreach (var alias in service.Aliases)
        {
            if (alias.TypeKind is TypeKind.Class or TypeKind.Struct && !alias.IsAbstract)
            {
                found.Add(alias);
            }
            else if (!Collect(alias, found, seen))
            {
                return false;
            }
        }
        return true;
    }

    // Whether t is (or derives from, or implements) the service type, generic definitions compared open, by name
    // (the two may come from different projects' compilations).
    private static bool IsA(INamedTypeSymbol t, INamedTypeSymbol service)
    {
        var name = SymbolNames.MetadataName(service);
        for (var b = t; b is not null; b = b.BaseType)
        {
            if (SymbolNames.MetadataName(b) == name)
            {
                return true;
            }
        }
        return t.AllInterfaces.Any(i => SymbolNames.MetadataName(i) == name);
    }

    // A file's registrations bound, its creations' types and its type mentions: what the registry notes of it.
    private List<(SyntaxNode Node, ServiceRegistration? Registration, string? Created)> Candidates(SyntaxTree tree)
    {
        var found = new List<(SyntaxNode, ServiceRegistration?, string?)>();
        foreach (var node in tree.GetRoot().DescendantNodes())
        {
            switch (node)
            {
                case InvocationExpressionSyntax call when NameOf(call.Expression) is { } name && (RegistrationNames.Contains(name) || CreateNames.Contains(name)):
                    found.Add((call, RegistrationNames.Contains(name) ? ServiceRegistration.Read(_index.Model(tree), call) : null, null));
                    break;
                case ObjectCreationExpressionSyntax creation:
                    found.Add((creation, SimpleName(creation.Type) == "ServiceDescriptor" ? ServiceRegistration.Read(_index.Model(tree), creation) : null, null));
                    break;
                case ImplicitObjectCreationExpressionSyntax implicitCreation:
                    found.Add((implicitCreation, null, _index.Model(tree).GetTypeInfo(implicitCreation).Type?.Name));
                    break;
                case TypeOfExpressionSyntax or GenericNameSyntax:
                    found.Add((node, null, null));
                    break;
            }
        }
        return found;
    }

    private void Note(ServiceRegistration? registration)
    {
        if (registration is null)
        {
            return;
        }
        var entry = Entry(registration.Service);
        entry.Implementations.AddRange(registration.Implementations);
        entry.Aliases.AddRange(registration.Aliases);
        entry.Open |= registration.Open;
        if (registration.Implementations.Count + registration.Aliases.Count > 0)
        {
            entry.Unchosen |= !registration.Chosen;
        }
        if (registration.Constructed is { } type && registration.Lifetime is { } lifetime)
        {
            ByType(registration.Service, type, lifetime);
        }
    }

    // typeof(IFoo) or M<IFoo>() outside DI's own methods: the service's implementations may be found by reflection (the types to open).
    private List<INamedTypeSymbol> Scanned(SyntaxNode mention)
    {
        var model = _index.Model(mention.SyntaxTree);
        var call = mention.AncestorsAndSelf().OfType<InvocationExpressionSyntax>().FirstOrDefault();
        IMethodSymbol? method = null;
        if (call is not null)
        {
            method = model.GetSymbolInfo(call).Symbol as IMethodSymbol;
        }
        if (mention is TypeOfExpressionSyntax && mention.Ancestors().OfType<ObjectCreationExpressionSyntax>().FirstOrDefault() is { } creation
            && SimpleName(creation.Type) == "ServiceDescriptor")
        {
            return [];
        }
        if (method?.ContainingType is { } owner && Ops.NameOf(owner).StartsWith(ServiceRegistration.DiNamespace, StringComparison.Ordinal))
        {
            return [];
        }
        var types = mention switch
        {
            TypeOfExpressionSyntax t => [model.GetTypeInfo(t.Type).Type],
            GenericNameSyntax g => g.TypeArgumentList.Arguments.Select(a => model.GetTypeInfo(a).Type).ToList(),
            _ => new List<ITypeSymbol?>(),
        };
        return [.. types.OfType<INamedTypeSymbol>()];
    }

    private static IEnumerable<string> MentionedNames(SyntaxNode mention) => mention switch
    {
        TypeOfExpressionSyntax t => [SimpleName(t.Type)],
        GenericNameSyntax g when g.Parent is InvocationExpressionSyntax or MemberAccessExpressionSyntax { Parent: InvocationExpressionSyntax } => g.TypeArgumentList.Arguments.Select(SimpleName),
        _ => [],
    };

    private void Constructed(InvocationExpressionSyntax call)
    {
        if (call.Expression is MemberAccessExpressionSyntax { Name: GenericNameSyntax g } || call.Expression is GenericNameSyntax)
        {
            var generic = call.Expression as GenericNameSyntax ?? (GenericNameSyntax)((MemberAccessExpressionSyntax)call.Expression).Name;
            foreach (var a in generic.TypeArgumentList.Arguments)
            {
                _constructed.Add(SimpleName(a));
            }
        }
        else if (!call.ArgumentList.Arguments.Any(a => a.Expression is TypeOfExpressionSyntax))
        {
            _constructsByType = true;
        }
        foreach (var t in call.ArgumentList.Arguments.Select(a => a.Expression).OfType<TypeOfExpressionSyntax>())
        {
            _constructed.Add(SimpleName(t.Type));
        }
    }

    private void ByType(INamedTypeSymbol service, INamedTypeSymbol implementation, string lifetime)
    {
        if (implementation.IsAbstract || implementation.TypeKind != TypeKind.Class)
        {
            return;
        }
        var key = SymbolNames.MetadataName(service);
        if (!_byType.TryGetValue(key, out var list))
        {
            _byType[key] = list = [];
        }
        if (!list.Any(x => SymbolNames.MetadataName(x.Type) == SymbolNames.MetadataName(implementation)))
        {
            list.Add((implementation, lifetime));
        }
    }

    private Service Entry(INamedTypeSymbol service)
    {
        var key = SymbolNames.MetadataName(service);
        if (!_services.TryGetValue(key, out var entry))
        {
            _services[key] = entry = new Service(service.Name);
        }
        return entry;
    }

    private static string? NameOf(ExpressionSyntax expression) => expression switch
    {
        MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
        SimpleNameSyntax s => s.Identifier.ValueText,
        _ => null,
    };

    private static string SimpleName(TypeSyntax type) => type switch
    {
        QualifiedNameSyntax q => SimpleName(q.Right),
        AliasQualifiedNameSyntax a => SimpleName(a.Name),
        SimpleNameSyntax s => s.Identifier.ValueText,
        NullableTypeSyntax n => SimpleName(n.ElementType),
        _ => type.ToString(),
    };

    private sealed class Service(string name)
    {
        public string Name { get; } = name;

        public List<INamedTypeSymbol> Implementations { get; } = [];

        /// <summary>Other services a factory hands on (<c>sp =&gt; sp.GetRequiredService&lt;Foo&gt;()</c>).</summary>
        public List<INamedTypeSymbol> Aliases { get; } = [];

        public bool Open { get; set; }

        /// <summary>A registration of it stands whatever the configuration: not every implementation is a startup choice.</summary>
        public bool Unchosen { get; set; }
    }
}
