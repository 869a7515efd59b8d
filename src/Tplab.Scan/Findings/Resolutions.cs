using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>
/// What DI runs before an entry point's code: the constructors of the services it asks for (registered by type:
/// <c>AddScoped&lt;IFoo, Foo&gt;()</c>), and theirs in turn, and the entry point's own class where the framework builds
/// one per request (a controller, a page model, a hub, a view component). A singleton's constructor runs once, on
/// the first request that asks for it: a branch; a scoped or transient one on every request.
/// </summary>
internal static class Resolutions
{
    /// <summary>The constructor edges from an entry point: its own class's, and its services'.</summary>
    public static IEnumerable<Edge> Of(EntryPoint root, SourceIndex index)
    {
        var site = root.Node.Syntax.GetLocation();
        if (root.Place is CodePlace.MvcAction or CodePlace.RazorPage or CodePlace.Hub or CodePlace.ViewComponent
            && root.Node.Symbol.MethodKind == MethodKind.Ordinary && root.Node.Symbol.ContainingType is { } owner)
        {
            foreach (var constructor in owner.InstanceConstructors)
            {
                if (index.NodeFor(constructor) is { } node && node != root.Node)
                {
                    yield return new Edge(node, site, EdgeKind.Injection, Conditional: false, Via: $"{owner.Name} built for the request");
                }
            }
        }
        foreach (var edge in Constructors(index, RootSet.Parameters(root), site))
        {
            yield return edge;
        }
    }

    /// <summary>The constructors DI runs to hand out <paramref name="parameters"/> (a type registration each; factories are entry points of their own).</summary>
    public static IEnumerable<Edge> Constructors(SourceIndex index, IEnumerable<IParameterSymbol> parameters, Location fallback) =>
        Constructors(index, parameters, fallback, once: false, depth: 0);

    private static IEnumerable<Edge> Constructors(SourceIndex index, IEnumerable<IParameterSymbol> parameters, Location fallback, bool once, int depth)
    {
        foreach (var parameter in parameters)
        {
            if (parameter.Type is not INamedTypeSymbol service)
            {
                continue;
            }
            var site = parameter.Locations.FirstOrDefault(l => l.IsInSource) ?? fallback;
            foreach (var (type, lifetime) in index.Services.ConstructedFor(service))
            {
                foreach (var constructor in type.InstanceConstructors)
                {
                    var singleton = once || lifetime == "singleton";
                    if (index.NodeFor(constructor) is { } node)
                    {
                        yield return new Edge(node, site, EdgeKind.Injection, Conditional: singleton, Via: $"{lifetime} {type.Name} built for {service.Name}");
                    }
                    else if (depth < 4)
                    {
                        // A primary constructor has no body to walk, but DI still resolves what it asks for.
                        foreach (var inner in Constructors(index, constructor.Parameters, site, singleton, depth + 1))
                        {
                            yield return inner;
                        }
                    }
                }
            }
        }
    }
}
