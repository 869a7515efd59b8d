using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The entry points as the cache keeps them (<see cref="CachedWalks.RootSet"/>): each by its method's key and what the
/// root finder said of it, the DI factories by the service they build, what the root finder read beyond declarations
/// (<see cref="Depends"/>) and the files that hold a registration. After edits inside bodies that touch none of these,
/// the entry points are the cached ones, found again in this scan's code (<see cref="Revive"/>), and the root finder,
/// which binds every registration of the solution, does not run.
/// </summary>
internal sealed record CachedRoots(IReadOnlyList<CachedRoot> Roots, IReadOnlyList<CachedFactories> Factories, IReadOnlyList<string> Depends, IReadOnlyList<string> SiteFiles)
{
    /// <summary>The record of <paramref name="set"/>, found with <paramref name="depends"/>; null when an entry point cannot be found again by its keys.</summary>
    public static CachedRoots? From(RootSet set, IReadOnlyList<string> depends, SourceIndex index)
    {
        var roots = new List<CachedRoot>();
        foreach (var r in set.Roots)
        {
            if (r.Controller is { } c && !SymbolEqualityComparer.Default.Equals(c, c.OriginalDefinition))
            {
                return null;
            }
            roots.Add(new CachedRoot(WalkKeys.Node(r.Node, index), r.Place, r.Endpoint, r.Guards,
                r.Controller is { } controller ? SymbolNames.MetadataName(controller) : null, r.Controller?.ContainingAssembly?.Name, r.Lifetime, r.Service, r.SetAs)
            {
                Rank = WalkKeys.Rank(r.Node),
            });
        }
        // A factory is one of the entry points (the same object, or one equal to it).
        var indexes = new Dictionary<EntryPoint, int>();
        for (var i = set.Roots.Count - 1; i >= 0; i--)
        {
            indexes[set.Roots[i]] = i;
        }
        var factories = new List<CachedFactories>();
        foreach (var (service, list) in set.FactoriesByService.OrderBy(f => f.Key, StringComparer.Ordinal))
        {
            var found = list.Select(f => indexes.TryGetValue(f, out var i) ? i : -1).ToList();
            if (found.Any(i => i < 0))
            {
                return null;
            }
            factories.Add(new CachedFactories(service, found));
        }
        return new CachedRoots(roots, factories, depends, set.SiteFiles);
    }

    /// <summary>
    /// The cached entry points in this scan's code, or null with the reason they must be found again: an edit not inside
    /// bodies, a registration in an edited file (before or after), a read of the root finder's touched, or an entry
    /// point not found again where it was.
    /// </summary>
    public (RootSet? Set, string? Because) Revive(PriorScan scan, EditedTokens edits, SourceIndex index)
    {
        if (!scan.BodiesOnly)
        {
            return (null, "an edited file declares something else");
        }
        var sites = SiteFiles.ToHashSet(StringComparer.Ordinal);
        if (edits.Trees.FirstOrDefault(t => sites.Contains(t.FilePath) || Sites.Registers(t)) is { } registers)
        {
            return (null, $"{index.RelativePath(registers)} holds a registration");
        }
        if (Depends.FirstOrDefault(edits.Dirty) is { } read)
        {
            return (null, $"the entry points were read from what changed ({read})");
        }
        var compilations = index.Trees.Select(index.CompilationOf).Distinct().Where(c => c.AssemblyName is not null)
            .GroupBy(c => c.AssemblyName!, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        // In an edited file the spans after the edit moved: an entry point there is found by its rank among the file's
        // declarations, which an edit inside bodies keeps (a lambda or local function there is found again instead).
        var roots = new List<EntryPoint>(Roots.Count);
        foreach (var r in Roots)
        {
            var file = WalkKeys.FileOf(r.Node);
            var node = !edits.Files.Contains(file) ? WalkKeys.FindNode(r.Node, index)
                : r.Rank is { } rank ? WalkKeys.FindDeclaration(file, rank, index)
                : null;
            INamedTypeSymbol? controller = null;
            if (r.Controller is not null)
            {
                controller = r.ControllerAssembly is { } assembly && compilations.TryGetValue(assembly, out var compilation) ? compilation.GetTypeByMetadataName(r.Controller) : null;
            }
            if (node is null || (r.Controller is not null && controller is null))
            {
                return (null, $"the entry point {r.Node} is not where the cached scan found it");
            }
            roots.Add(new EntryPoint(node, r.Place, r.Endpoint) { Guards = r.Guards, Controller = controller, Lifetime = r.Lifetime, Service = r.Service, SetAs = r.SetAs });
        }
        // Each is where it was, and what DI runs for it is read from declarations (its parameters, its type's
        // constructors) and the cached factories: as it was, since every edit was inside bodies.
        return (new RootSet(roots, Factories.ToDictionary(f => f.Service, f => f.Roots.Select(i => roots[i]).ToList(), StringComparer.Ordinal)) { SiteFiles = SiteFiles }, null);
    }

    /// <summary>
    /// This record for <paramref name="set"/>, the set <see cref="Revive"/> gave: the entry points in an edited file
    /// keyed where they are now (the others, and everything else, as they were).
    /// </summary>
    public CachedRoots Moved(RootSet set, EditedTokens edits, SourceIndex index) => this with
    {
        Roots = [.. Roots.Select((r, i) => edits.Files.Contains(WalkKeys.FileOf(r.Node)) ? r with { Node = WalkKeys.Node(set.Roots[i].Node, index) } : r)],
    };

    /// <summary>This record, or the first thing in it no scan writes, as a reason.</summary>
    public string? Invalid() =>
        Roots is null || !Roots.All(r => r is not null && r.Node is not null && (r.Rank is null or >= 0) && Enum.IsDefined(r.Place) && r.Guards is not null && r.Guards.All(g => g is not null)
                && (r.Endpoint is null || (r.Endpoint.Method is not null && r.Endpoint.Route is not null)))
            ? "an entry point is incomplete"
        : Factories is null || !Factories.All(f => f is not null && f.Service is not null && f.Roots is not null && f.Roots.All(i => i >= 0 && i < Roots.Count))
            || Factories.DistinctBy(f => f.Service).Count() != Factories.Count
            ? "a factory is missing"
        : Depends is null || Depends.Any(d => d is null) || SiteFiles is null || SiteFiles.Any(f => f is null) ? "the entry points' reads are missing"
        : null;
}

/// <summary>An entry point by its method's key (<see cref="WalkKeys.Node"/>), its controller by metadata and assembly name.</summary>
internal sealed record CachedRoot(string Node, CodePlace Place, HttpEndpoint? Endpoint, IReadOnlyList<string> Guards, string? Controller, string? ControllerAssembly,
    string? Lifetime, string? Service, string? SetAs)
{
    /// <summary>The method's rank among its file's declarations (<see cref="WalkKeys.Rank"/>): how it is found after an edit of its file.</summary>
    public int? Rank { get; init; }
}

/// <summary>The DI factories of a service, as indexes into <see cref="CachedRoots.Roots"/>.</summary>
internal sealed record CachedFactories(string Service, IReadOnlyList<int> Roots);
