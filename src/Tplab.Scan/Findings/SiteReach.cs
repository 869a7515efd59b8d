using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>One entry point's reach of a site, in numbers: no chain is kept.</summary>
internal readonly record struct SiteHit(int Root, Severity Severity, int Depth, int Cost, bool Ignored)
{
    /// <summary>A request's own code, per request: a request-path entry point, no singleton built on first use on the way.</summary>
    public bool EveryRequest { get; init; }
}

/// <summary>A site and the entry points that reach it, noted concurrently by the walks.</summary>
internal sealed class SiteReach(SiteFacts facts)
{
    /// <summary>
    /// A warning reached per request from at least this many request-path entry points is an error: whatever branch
    /// or implementation each way takes, so many endpoints make it a path that runs all the time.
    /// </summary>
    public const int WideReach = 10;

    private readonly List<SiteHit> _hits = [];
    private readonly Dictionary<CodeNode, (int Count, int Height)> _through = [];
    private readonly HashSet<string> _files = new(StringComparer.Ordinal);

    public SiteFacts Facts { get; } = facts;

    /// <summary>
    /// For each method on the synchronous part of an entry point's way to the site (ignored ways left out): how many
    /// entry points go through it, and its greatest distance from the site's method (<see cref="Layer.From"/>).
    /// </summary>
    public IReadOnlyDictionary<CodeNode, (int Count, int Height)> Through => _through;

    /// <summary>The files of every entry point's way to the site, in ordinal order (what <c>scan --changed-since</c> matches).</summary>
    public IReadOnlyList<string> ChainFiles
    {
        get
        {
            lock (_hits)
            {
                return [.. _files.Order(StringComparer.Ordinal)];
            }
        }
    }

    /// <summary>Notes one entry point's reach, with the methods on its way to the site, the site's method first.</summary>
    public void Add(SiteHit hit, IReadOnlyList<CodeNode> way)
    {
        lock (_hits)
        {
            _hits.Add(hit);
            foreach (var node in way)
            {
                _files.Add(node.RelativePath);
            }
            for (var i = 0; !hit.Ignored && i < way.Count && Layer.CanBecomeAsync(way[i]); i++)
            {
                var (count, height) = _through.GetValueOrDefault(way[i]);
                _through[way[i]] = (count + 1, Math.Max(height, i));
            }
        }
    }

    /// <summary>Whether the site's fix is a layer to make async (a blocking call's; a lock's or an offload's fix is where it is).</summary>
    public static bool HasLayer(SiteFacts facts) => facts.Call.Kind is not (BlockingKind.Lock or BlockingKind.TaskRunOffload);

    /// <summary>
    /// A warning made an error by its reach: the call itself surely blocks (not a stream or query of unknown type, not a
    /// lock or an offload), and at least <see cref="WideReach"/> request-path entry points reach it on a request's own
    /// code (not through a singleton built once).
    /// </summary>
    public static bool ErrorByReach(Severity worst, SiteFacts facts, IReadOnlyList<SiteHit> roots) =>
        worst == Severity.Warning && facts.Uncertain is null && HasLayer(facts) && roots.Count(h => h.EveryRequest) >= WideReach;

    /// <summary>
    /// The roots to report, worst first then nearest (an ignored way in left out unless every way in is ignored, then
    /// the site is suppressed); the root that gives the severity, and a few others nearest first, have their chains shown.
    /// </summary>
    public ChosenSite Choose(IReadOnlyList<EntryPoint> all)
    {
        var live = _hits.Where(h => !h.Ignored).ToList();
        var suppressed = live.Count == 0;
        var hits = (suppressed ? _hits : live)
            .GroupBy(h => h.Root).Select(g => g.First())
            .OrderByDescending(h => h.Severity).ThenBy(h => h.Depth).ThenBy(h => h.Cost).ThenBy(h => all[h.Root].Key, StringComparer.Ordinal).ThenBy(h => h.Root)
            .ToList();
        var shown = new List<int> { hits[0].Root };
        shown.AddRange(hits.Skip(1).OrderBy(h => h.Depth).ThenBy(h => all[h.Root].Key, StringComparer.Ordinal).Select(h => h.Root).Take(FindingBuilder.OtherChains));
        return new ChosenSite(this, hits, shown, suppressed);
    }
}

/// <summary>A site with its roots in report order and the roots whose chains are shown (the first gives the severity).</summary>
internal sealed record ChosenSite(SiteReach Reach, IReadOnlyList<SiteHit> Roots, IReadOnlyList<int> Shown, bool Suppressed);
