using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// What an application's registrations say about types found elsewhere: which paths a middleware class guards
/// (<c>UseMiddleware</c>), a hub's route (<c>MapHub</c>), the health endpoints and the checks each runs, the filters
/// added to every MVC action.
/// </summary>
internal sealed class TypeRegistrations(Sites sites, RoutePrefixes prefixes)
{
    private readonly Sites _sites = sites;
    private readonly RoutePrefixes _prefixes = prefixes;

    /// <summary>Middleware classes registered with UseMiddleware, and the paths each registration guards (empty list: every request).</summary>
    public Dictionary<string, List<IReadOnlyList<string>>> MiddlewareGuards { get; } = new(StringComparer.Ordinal);

    /// <summary>Routes mapped to hub types (MapHub&lt;T&gt;) by the type's metadata name.</summary>
    public Dictionary<string, string> HubRoutes { get; } = new(StringComparer.Ordinal);

    /// <summary>The health-check endpoints: route, and which checks its predicate runs (null: all; empty: none; else the tags it asks for).</summary>
    public List<(string Route, HashSet<string>? Tags)> HealthEndpoints { get; } = [];

    /// <summary>The tags each health check type was registered with (AddCheck&lt;T&gt;(name, tags: [...])).</summary>
    public Dictionary<string, HashSet<string>> HealthCheckTags { get; } = new(StringComparer.Ordinal);

    /// <summary>The routes of the health endpoints that run checks of <paramref name="checkType"/> (a predicate source cannot read counts as running it).</summary>
    public IEnumerable<string> HealthRoutesFor(string checkType) =>
        HealthEndpoints.Where(e => e.Tags is null || e.Tags.Overlaps(HealthCheckTags.GetValueOrDefault(checkType) ?? [])).Select(e => e.Route);

    /// <summary>Filter types added to every MVC action (<c>options.Filters.Add&lt;T&gt;()</c>).</summary>
    public HashSet<string> GlobalFilters { get; } = new(StringComparer.Ordinal);

    /// <summary>Reads them all (once).</summary>
    public void Read()
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
    private static HashSet<string>? HealthPredicate(IOperation? options)
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

    private static IOperation? Argument(IInvocationOperation call, string parameter) => Registrations.Argument(call, parameter);
}
