using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>
/// The cached scan's walks, findings and chains, matched to this scan's entry points (the same list, in the same
/// order), and the entry points to walk again (<see cref="Affected"/>): an incremental scan's input to
/// <see cref="FindingBuilder"/>. Made by <c>Incremental/CachedWalks</c>, which decides what an edit can affect.
/// </summary>
internal sealed class PriorWalks(
    IReadOnlyList<EntryPoint> roots,
    IReadOnlyList<WalkRecord> records,
    ISet<int> affected,
    IReadOnlyList<(Finding Finding, bool Suppressed, string Site)> findings,
    IReadOnlyDictionary<(int Root, string Site), RootView> views,
    ISet<string> editedMethods)
{
    private readonly Dictionary<EntryPoint, int> _index = Indexed(roots);

    /// <summary>The cached walk of each entry point, in this scan's order.</summary>
    public IReadOnlyList<WalkRecord> Records => records;

    /// <summary>The entry points whose walks an edit may have changed: walked again.</summary>
    public ISet<int> Affected => affected;

    /// <summary>The cached findings (suppressed ones too), each with its site's key, their entry points this scan's.</summary>
    public IReadOnlyList<(Finding Finding, bool Suppressed, string Site)> Findings => findings;

    public int RootIndex(EntryPoint root) => _index[root];

    private static Dictionary<EntryPoint, int> Indexed(IReadOnlyList<EntryPoint> roots)
    {
        var index = new Dictionary<EntryPoint, int>(ReferenceEqualityComparer.Instance);
        for (var i = 0; i < roots.Count; i++)
        {
            index[roots[i]] = i;
        }
        return index;
    }

    /// <summary>The cached chain of a site from an entry point not walked again, or null.</summary>
    public RootView? View(int root, string site) => !affected.Contains(root) && views.TryGetValue((root, site), out var view) ? view : null;

    /// <summary>
    /// The sites to judge again: those the walks made again reach (<paramref name="reached"/>), those the same entry
    /// points reached before, and those in an edited method (an edit there may renumber them: <see cref="SiteOrdinals"/>).
    /// </summary>
    public HashSet<string> Rejudged(IEnumerable<string> reached)
    {
        var sites = new HashSet<string>(reached, StringComparer.Ordinal);
        sites.UnionWith(affected.SelectMany(i => records[i].Hits.Select(h => h.Site)));
        sites.UnionWith(findings.Where(f => editedMethods.Contains(f.Finding.Chain[^1].Method)).Select(f => f.Site));
        return sites;
    }
}

/// <summary>The cached walks do not fit this scan's code (a method or site not where they were): the analysis is done whole instead.</summary>
internal sealed class PriorWalksMismatch(string message) : Exception(message);
