using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// The entry points an application registers by calling the framework: minimal API handlers (with their groups'
/// prefixes), <c>app.Use</c>/<c>app.Run</c> lambdas, dependency-injection factories, timers; what registrations say
/// about types found elsewhere is <see cref="TypeRegistrations"/>.
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
        Types = new TypeRegistrations(sites, _prefixes);
    }

    /// <summary>What registrations say about types found elsewhere (read by <see cref="Find"/>, at its end).</summary>
    public TypeRegistrations Types { get; }

    /// <summary>The factories registered per service type (metadata name): what resolving that type runs.</summary>
    public Dictionary<string, List<EntryPoint>> FactoriesByService { get; } = new(StringComparer.Ordinal);

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
        Types.Read();
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

    internal static IOperation? Argument(IInvocationOperation call, string parameter) =>
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
