using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// The entry points an application registers by calling the framework: minimal API handlers (with their groups'
/// prefixes), <c>app.Use</c>/<c>app.Run</c> lambdas, dependency-injection factories, timers; and what registrations say
/// about types found elsewhere (which paths a middleware class guards, a hub's route, a global filter).
/// </summary>
internal sealed class Registrations
{
    // The Map* methods and their verbs (AspNetVocabulary, shared with diagnose); MapMethods names its verbs in an argument.
    private static readonly Dictionary<string, string> Verbs =
        new[] { "MapGet", "MapPost", "MapPut", "MapDelete", "MapPatch", "Map", "MapFallback", "MapMethods" }
            .ToDictionary(m => m, m => AspNetVocabulary.MapVerb(m) ?? "", StringComparer.Ordinal);

    private readonly SourceIndex _index;
    private readonly Sites _sites;
    private readonly RoutePrefixes _prefixes;

    public Registrations(SourceIndex index, Sites sites)
    {
        _index = index;
        _sites = sites;
        _prefixes = new RoutePrefixes(index);
    }

    /// <summary>Middleware classes registered with UseMiddleware, and the paths each registration guards (empty list: every request).</summary>
    public Dictionary<string, List<IReadOnlyList<string>>> MiddlewareGuards { get; } = new(StringComparer.Ordinal);

    /// <summary>Routes mapped to hub types (MapHub&lt;T&gt;) by the type's metadata name.</summary>
    public Dictionary<string, string> HubRoutes { get; } = new(StringComparer.Ordinal);

    /// <summary>The health-check endpoints: route, and which checks its predicate runs (null: all; empty: none; else the tags it asks for).</summary>
    public List<(string Route, IReadOnlySet<string>? Tags)> HealthEndpoints { get; } = [];

    /// <summary>The tags each health check type was registered with (AddCheck&lt;T&gt;(name, tags: [...])).</summary>
    public Dictionary<string, HashSet<string>> HealthCheckTags { get; } = new(StringComparer.Ordinal);

    /// <summary>The routes of the health endpoints that run checks of <paramref name="checkType"/> (a predicate source cannot read counts as running it).</summary>
    public IEnumerable<string> HealthRoutesFor(string checkType) =>
        HealthEndpoints.Where(e => e.Tags is null || e.Tags.Overlaps(HealthCheckTags.GetValueOrDefault(checkType) ?? [])).Select(e => e.Route);

    /// <summary>The factories registered per service type (metadata name): what resolving that type runs.</summary>
    public Dictionary<string, List<EntryPoint>> FactoriesByService { get; } = new(StringComparer.Ordinal);

    /// <summary>Filter types added to every MVC action (<c>options.Filters.Add&lt;T&gt;()</c>).</summary>
    public HashSet<string> GlobalFilters { get; } = new(StringComparer.Ordinal);

    public IEnumerable<EntryPoint> Find()
    {
        foreach (var root in MinimalApis())
        {
            yield return root;
        }
        foreach (var root in InlineMiddleware())
        {
            yield return root;
        }
        foreach (var root in Factories())
        {
            yield return root;
        }
        foreach (var root in Timers())
        {
            yield return root;
        }
        ReadTypeRegistrations();
    }

    private IEnumerable<EntryPoint> MinimalApis()
    {
        foreach (var (verbName, verb) in Verbs)
        {
            foreach (var (call, body) in _sites.Invocations(verbName))
            {
                var method = call.TargetMethod;
                var owner = Ops.NameOf(method.ContainingType);
                if (owner is not ("Microsoft.AspNetCore.Builder.EndpointRouteBuilderExtensions" or "Microsoft.AspNetCore.Builder.FallbackEndpointRouteBuilderExtensions"))
                {
                    continue;
                }
                var handler = Handler(call);
                if (handler is null)
                {
                    continue;
                }
                var pattern = Argument(call, "pattern")?.ConstantValue is { HasValue: true, Value: string p } ? p : verbName == "MapFallback" ? "{*path:nonfile}" : null;
                if (pattern is null)
                {
                    continue;
                }
                var methods = verb.Length > 0 ? [verb] : HttpMethods(call);
                foreach (var prefix in _prefixes.Of(Ops.Receiver(call), body))
                {
                    foreach (var m in methods)
                    {
                        yield return new EntryPoint(handler, CodePlace.MinimalApi, new HttpEndpoint(m, RoutePrefixes.Join(prefix, pattern)));
                    }
                }
            }
        }
    }

    private IEnumerable<EntryPoint> InlineMiddleware()
    {
        foreach (var name in new[] { "Use", "Run" })
        {
            foreach (var (call, _) in _sites.Invocations(name))
            {
                var owner = Ops.NameOf(call.TargetMethod.ContainingType);
                if (owner is not ("Microsoft.AspNetCore.Builder.UseExtensions" or "Microsoft.AspNetCore.Builder.RunExtensions" or "Microsoft.AspNetCore.Builder.IApplicationBuilder"))
                {
                    continue;
                }
                var handler = DelegateArgument(call);
                if (handler is null)
                {
                    continue;
                }
                // app.Use(next => async context => ...): the outer lambda runs once when the pipeline is built, the inner one per request.
                if (owner == "Microsoft.AspNetCore.Builder.IApplicationBuilder" && handler is IAnonymousFunctionOperation outer
                    && outer.Body.Operations.LastOrDefault() is IReturnOperation { ReturnedValue: { } returned }
                    && Ops.Unwrap(returned) is IDelegateCreationOperation { Target: IAnonymousFunctionOperation inner })
                {
                    handler = inner;
                }
                if (NodeOf(handler) is { } node)
                {
                    yield return new EntryPoint(node, CodePlace.Middleware, null) { Guards = _prefixes.Guards(Ops.Receiver(call)) };
                }
            }
        }
    }

    private IEnumerable<EntryPoint> Factories()
    {
        foreach (var name in new[] { "AddSingleton", "AddScoped", "AddTransient", "TryAddSingleton", "TryAddScoped", "TryAddTransient",
            "AddKeyedSingleton", "AddKeyedScoped", "AddKeyedTransient", "TryAddKeyedSingleton", "TryAddKeyedScoped", "TryAddKeyedTransient" })
        {
            foreach (var (call, _) in _sites.Invocations(name))
            {
                if (!Ops.NameOf(call.TargetMethod.ContainingType).StartsWith("Microsoft.Extensions.DependencyInjection.", StringComparison.Ordinal))
                {
                    continue;
                }
                var factory = call.Arguments.Select(a => Ops.Unwrap(a.Value)).OfType<IDelegateCreationOperation>()
                    .FirstOrDefault(d => d.Type is INamedTypeSymbol { Name: "Func" } f && f.TypeArguments.Length >= 2
                        && Ops.NameOf(f.TypeArguments[0]) == "System.IServiceProvider");
                if (factory is not null && NodeOf(factory.Target) is { } node)
                {
                    var lifetime = name.Contains("Singleton", StringComparison.Ordinal) ? "singleton" : name.Contains("Scoped", StringComparison.Ordinal) ? "scoped" : "transient";
                    var service = call.TargetMethod.TypeArguments.FirstOrDefault() ?? ((INamedTypeSymbol)factory.Type!).TypeArguments[^1];
                    var root = new EntryPoint(node, CodePlace.DiFactory, null) { Lifetime = lifetime, Service = service.Name };
                    if (service is INamedTypeSymbol named)
                    {
                        var key = SymbolNames.MetadataName(named);
                        if (!FactoriesByService.TryGetValue(key, out var list))
                        {
                            FactoriesByService[key] = list = [];
                        }
                        list.Add(root);
                    }
                    yield return root;
                }
            }
        }
    }

    private IEnumerable<EntryPoint> Timers()
    {
        foreach (var (creation, _) in _sites.Creations("System.Threading.Timer"))
        {
            var callback = creation.Arguments.Select(a => Ops.Unwrap(a.Value)).OfType<IDelegateCreationOperation>().FirstOrDefault();
            if (callback is not null && NodeOf(callback.Target) is { } node)
            {
                yield return new EntryPoint(node, CodePlace.Timer, null);
            }
        }
        foreach (var assignment in _sites.ElapsedHandlers())
        {
            var handler = Ops.Unwrap(assignment.HandlerValue) is IDelegateCreationOperation d ? d.Target : Ops.Unwrap(assignment.HandlerValue);
            if (handler is not null && NodeOf(handler) is { } node)
            {
                yield return new EntryPoint(node, CodePlace.Timer, null);
            }
        }
        // A PeriodicTimer loop: the code that awaits the ticks runs on a pool thread each time.
        foreach (var (call, _) in _sites.Invocations("WaitForNextTickAsync"))
        {
            if (Ops.NameOf(call.TargetMethod.ContainingType) == "System.Threading.PeriodicTimer" && EnclosingNode(call) is { } node)
            {
                yield return new EntryPoint(node, CodePlace.Timer, null);
            }
        }
    }

    private void ReadTypeRegistrations()
    {
        foreach (var name in new[] { "UseMiddleware", "UseMiddlewareAsync" })
        {
            foreach (var (call, _) in _sites.Invocations(name))
            {
                var type = call.TargetMethod.TypeArguments.FirstOrDefault()
                    ?? call.Arguments.Select(a => Ops.Unwrap(a.Value)).OfType<ITypeOfOperation>().FirstOrDefault()?.TypeOperand;
                if (type is INamedTypeSymbol named)
                {
                    var key = SymbolNames.MetadataName(named);
                    if (!MiddlewareGuards.TryGetValue(key, out var list))
                    {
                        MiddlewareGuards[key] = list = [];
                    }
                    list.Add(_prefixes.Guards(Ops.Receiver(call)));
                }
            }
        }
        foreach (var (call, body) in _sites.Invocations("MapHub"))
        {
            if (call.TargetMethod.TypeArguments.FirstOrDefault() is INamedTypeSymbol hub && Argument(call, "pattern")?.ConstantValue is { HasValue: true, Value: string pattern })
            {
                HubRoutes[SymbolNames.MetadataName(hub)] = RoutePrefixes.Join(_prefixes.Of(Ops.Receiver(call), body)[0], pattern);
            }
        }
        foreach (var (call, body) in _sites.Invocations("MapHealthChecks"))
        {
            if (Argument(call, "pattern")?.ConstantValue is { HasValue: true, Value: string pattern })
            {
                HealthEndpoints.Add((RoutePrefixes.Join(_prefixes.Of(Ops.Receiver(call), body)[0], pattern), HealthPredicate(Argument(call, "options"))));
            }
        }
        foreach (var (call, _) in _sites.Invocations("AddCheck"))
        {
            if (call.TargetMethod.TypeArguments.FirstOrDefault() is INamedTypeSymbol check)
            {
                var tags = Argument(call, "tags")?.DescendantsAndSelf().Select(o => o.ConstantValue).Where(c => c.HasValue && c.Value is string).Select(c => (string)c.Value!) ?? [];
                var key = SymbolNames.MetadataName(check);
                if (!HealthCheckTags.TryGetValue(key, out var set))
                {
                    HealthCheckTags[key] = set = new HashSet<string>(StringComparer.Ordinal);
                }
                set.UnionWith(tags);
            }
        }
        foreach (var name in new[] { "Add", "AddService" })
        {
            foreach (var (call, _) in _sites.Invocations(name))
            {
                if (Ops.NameOf(call.TargetMethod.ContainingType) != "Microsoft.AspNetCore.Mvc.Filters.FilterCollection")
                {
                    continue;
                }
                var type = call.TargetMethod.TypeArguments.FirstOrDefault()
                    ?? call.Arguments.Select(a => Ops.Unwrap(a.Value)).Select(v => v is ITypeOfOperation t ? t.TypeOperand : v?.Type).FirstOrDefault(t => t is INamedTypeSymbol);
                if (type is INamedTypeSymbol filter)
                {
                    GlobalFilters.Add(SymbolNames.MetadataName(filter));
                }
            }
        }
    }

    // new HealthCheckOptions { Predicate = _ => false }: runs none; check => check.Tags.Contains("ready"): those tags; no predicate: all.
    private static IReadOnlySet<string>? HealthPredicate(IOperation? options)
    {
        var predicate = options?.DescendantsAndSelf().OfType<ISimpleAssignmentOperation>()
            .FirstOrDefault(a => Ops.Unwrap(a.Target) is IPropertyReferenceOperation { Property.Name: "Predicate" })?.Value;
        if (Ops.Unwrap(predicate) is not IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda })
        {
            return null;
        }
        var returned = lambda.Body.Operations.OfType<IReturnOperation>().FirstOrDefault()?.ReturnedValue;
        if (returned?.ConstantValue is { HasValue: true, Value: false })
        {
            return new HashSet<string>(StringComparer.Ordinal);
        }
        var tags = lambda.Body.DescendantsAndSelf().OfType<IInvocationOperation>().Where(i => i.TargetMethod.Name == "Contains")
            .SelectMany(i => i.Arguments).Select(a => Ops.Unwrap(a.Value)?.ConstantValue ?? default).Where(c => c.HasValue && c.Value is string)
            .Select(c => (string)c.Value!).ToHashSet(StringComparer.Ordinal);
        return tags.Count > 0 ? tags : null;
    }

    private static IOperation? Argument(IInvocationOperation call, string parameter) =>
        call.Arguments.FirstOrDefault(a => a.Parameter?.Name == parameter)?.Value;

    private CodeNode? Handler(IInvocationOperation call) =>
        DelegateArgument(call) is { } target ? NodeOf(target) : null;

    private static IOperation? DelegateArgument(IInvocationOperation call) =>
        call.Arguments.Select(a => Ops.Unwrap(a.Value)).OfType<IDelegateCreationOperation>().Select(d => d.Target).LastOrDefault();

    private CodeNode? NodeOf(IOperation target) => target switch
    {
        IAnonymousFunctionOperation lambda => _index.NodeFor(lambda.Syntax),
        IMethodReferenceOperation reference when _index.IsSource(reference.Method) => _index.NodeFor(reference.Method),
        _ => null,
    };

    private CodeNode? EnclosingNode(IOperation op)
    {
        for (var p = op.Parent; p is not null; p = p.Parent)
        {
            switch (p)
            {
                case IAnonymousFunctionOperation lambda:
                    return _index.NodeFor(lambda.Syntax);
                case ILocalFunctionOperation local:
                    return _index.NodeFor(local.Syntax);
                case IMethodBodyOperation or IConstructorBodyOperation:
                    return _index.NodeFor(p.Syntax);
            }
        }
        return null;
    }

    private static IReadOnlyList<string> HttpMethods(IInvocationOperation call)
    {
        var values = Argument(call, "httpMethods")?.DescendantsAndSelf().Select(o => o.ConstantValue).Where(c => c.HasValue && c.Value is string)
            .Select(c => ((string)c.Value!).ToUpperInvariant()).Distinct().ToList();
        return values is { Count: > 0 } ? values : ["ANY"];
    }
}
