using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>The entry points, and the dependency-injection factories each one's services come from.</summary>
internal sealed record RootSet(IReadOnlyList<EntryPoint> Roots, IReadOnlyDictionary<string, List<EntryPoint>> FactoriesByService)
{
    /// <summary>The files that hold a registration the entry points were found by (<see cref="Sites.Files"/>; full paths).</summary>
    public IReadOnlyList<string> SiteFiles { get; init; } = [];

    /// <summary>
    /// The factories an entry point runs by asking for services: its own parameters (a minimal API handler's, a
    /// middleware's Invoke) and its type's constructor parameters (a controller's, a page's, a filter's).
    /// </summary>
    public IEnumerable<(EntryPoint Factory, IParameterSymbol Parameter)> Injected(EntryPoint root)
    {
        foreach (var parameter in Parameters(root))
        {
            if (parameter.Type is INamedTypeSymbol t && FactoriesByService.TryGetValue(SymbolNames.MetadataName(t), out var factories))
            {
                foreach (var factory in factories)
                {
                    yield return (factory, parameter);
                }
            }
        }
    }

    /// <summary>What an entry point asks DI for: its own parameters, and its type's constructor parameters for a method.</summary>
    public static IEnumerable<IParameterSymbol> Parameters(EntryPoint root)
    {
        var symbol = root.Node.Symbol;
        var parameters = symbol.Parameters.AsEnumerable();
        if (symbol.MethodKind == MethodKind.Ordinary && symbol.ContainingType is { } type)
        {
            parameters = parameters.Concat(type.InstanceConstructors.SelectMany(c => c.Parameters));
        }
        return parameters;
    }
}

/// <summary>Every entry point of the solution: registered by calls (minimal APIs, middleware lambdas, factories, timers) and recognised by type.</summary>
internal static class RootFinder
{
    public static RootSet Find(SourceIndex index, CancellationToken cancellationToken)
    {
        var sites = new Sites(index, cancellationToken);
        var registrations = new Registrations(index, sites);
        var roots = registrations.Find().ToList();
        roots.AddRange(PoolCallbacks.Find(index, sites));
        roots.AddRange(FrameworkCallbacks.Find(index, sites));
        var parts = new ApplicationParts(sites);
        var trees = index.Trees.ToHashSet();
        var routing = new SourceRouting(tree => trees.Contains(tree) ? index.Model(tree) : null);
        var conventional = ConventionalRoutes.Find(sites, index.Callers);
        foreach (var type in index.Types)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (MvcRoots.IsController(type) && parts.Contains(type))
            {
                roots.AddRange(MvcRoots.Actions(type, index, routing, conventional));
            }
            else if (MvcRoots.IsPageModel(type))
            {
                roots.AddRange(MvcRoots.PageHandlers(type, index));
            }
            roots.AddRange(TypeRoots.Find(type, index, registrations));
        }
        roots = ApplyFilterGuards(roots, registrations);
        // A PeriodicTimer loop inside a hosted service is that service's work: keep the hosted-service root.
        var hosted = roots.Where(r => r.Place == CodePlace.HostedService).Select(r => r.Node).ToHashSet();
        roots = [.. roots.Where(r => !(r.Place == CodePlace.Timer && hosted.Contains(r.Node)))];
        return new RootSet(
            [.. roots.DistinctBy(r => (r.Node, r.Place, r.Endpoint, r.Controller, string.Join("|", r.Guards)))
                .OrderBy(r => r.Node.RelativePath, StringComparer.Ordinal).ThenBy(r => r.Node.Line).ThenBy(r => r.Key, StringComparer.Ordinal)],
            registrations.FactoriesByService)
        {
            SiteFiles = sites.Files,
        };
    }

    // A filter guards the actions it is applied to: globally, or by attribute on the controller or action.
    private static List<EntryPoint> ApplyFilterGuards(List<EntryPoint> roots, Registrations registrations)
    {
        var actions = roots.Where(r => r.Place == CodePlace.MvcAction && r.Endpoint is not null).ToList();
        return [.. roots.Select(r =>
        {
            if (r.Place != CodePlace.Filter)
            {
                return r;
            }
            var filterType = r.Node.Symbol.ContainingType;
            if (filterType.AllInterfaces.Any(i => TypeRoots.OpenApiFilters.Contains(SymbolNames.MetadataName(i))))
            {
                return r with { Guards = ["the OpenAPI document (swagger.json)"] };
            }
            if (registrations.Types.GlobalFilters.Contains(SymbolNames.MetadataName(filterType)))
            {
                return r with { Guards = ["every MVC action"] };
            }
            var guarded = actions.Where(a => AppliesTo(filterType, a.Node.Symbol)).Select(a => a.Endpoint!.ToString()).Distinct().ToList();
            return r with { Guards = guarded };
        })];
    }

    private static bool AppliesTo(INamedTypeSymbol filter, IMethodSymbol action) =>
        action.GetAttributes().Concat(MvcRoots.Attributes(action.ContainingType, inherit: true)).Any(a =>
            SymbolEqualityComparer.Default.Equals(a.AttributeClass, filter)
            || (MvcRoots.Name(a) is "Microsoft.AspNetCore.Mvc.TypeFilterAttribute" or "Microsoft.AspNetCore.Mvc.ServiceFilterAttribute"
                && a.ConstructorArguments.FirstOrDefault().Value is INamedTypeSymbol t && SymbolEqualityComparer.Default.Equals(t, filter)));
}
