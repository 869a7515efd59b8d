using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Findings;

/// <summary>
/// Turns the walks from every entry point into one finding per blocking site. First every entry point is walked
/// (in parallel) and each site it reaches noted as a few numbers (which root, how bad, how far); no chain is built.
/// Then, per site, the entry point that gives it its severity is chosen and only its chain, and a few others for
/// SARIF's code flows, are built, by walking those entry points again. Output and memory grow with sites, not with
/// entry points × sites.
/// </summary>
internal sealed class FindingBuilder(CallGraph graph, LockAnalysis locks, RootSet roots, int maxDepth)
{
    /// <summary>Other entry points' chains kept per site (SARIF code flows beyond the first).</summary>
    public const int OtherChains = 2;

    private readonly SiteCatalogue _catalogue = new(graph, locks);
    private readonly ConcurrentDictionary<object, SiteReach> _sites = new(ReferenceEqualityComparer.Instance);
    private readonly ConcurrentDictionary<Location, bool> _ignored = new();
    private int _cut;

    /// <summary>How many entry points' walks reached the depth bound with calls still to follow (known after <see cref="Build"/>).</summary>
    public int WalksAtMaxDepth => _cut;

    /// <summary>The sites one entry point reaches, as if it were the only one, suppressed ones included (the rules' tests read them).</summary>
    public IReadOnlyList<Finding> For(EntryPoint root)
    {
        var (findings, suppressed) = new FindingBuilder(graph, locks, roots with { Roots = [root] }, maxDepth).Build(SilentProgress.Instance, CancellationToken.None);
        return [.. findings, .. suppressed];
    }

    /// <summary>Every site reached from the entry points, with its roots; suppressed ones (every way in ignored) apart.</summary>
    public (List<Finding> Findings, List<Finding> Suppressed) Build(IScanProgress progress, CancellationToken cancellationToken)
    {
        var all = roots.Roots;
        var done = 0;
        // Binding method bodies is the cost, and Roslyn's models are thread-safe: entry points are walked in parallel, one
        // worker per core (a walk that waits for a body another is binding would otherwise make the pool add threads,
        // each allocating, and the GC stops them all).
        var options = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = graph.Index.Workers };
        Bind(all, options, progress);
        Parallel.For(0, all.Count, options, i =>
        {
            var walk = RootWalk.From(all[i], graph, roots, maxDepth);
            if (walk.ReachedMaxDepth)
            {
                Interlocked.Increment(ref _cut);
            }
            Note(i, walk);
            var n = Interlocked.Increment(ref done);
            progress.Status(FormattableString.Invariant($"following calls: {n}/{all.Count} entry points, {graph.NodesRead} methods read, {_sites.Count} blocking sites"));
        });

        var chosen = _sites.Values.Select(s => s.Choose(all)).ToList();
        // Each entry point whose chain is shown is walked once more, for all the sites it shows.
        var byRoot = chosen.SelectMany(c => c.Shown.Select(r => (Root: r, Site: c))).GroupBy(x => x.Root).ToList();
        var views = new ConcurrentDictionary<(int Root, object Site), RootView>();
        done = 0;
        Parallel.ForEach(byRoot, options, group =>
        {
            var walk = RootWalk.From(all[group.Key], graph, roots, maxDepth);
            foreach (var (_, site) in group)
            {
                views[(group.Key, site.Reach.Facts.Key)] = RootView.Of(walk, site.Reach.Facts);
            }
            var n = Interlocked.Increment(ref done);
            progress.Status(FormattableString.Invariant($"writing chains: {n}/{byRoot.Count} entry points"));
        });

        var ordinals = new SiteOrdinals(graph.Index, _catalogue);
        var findings = new List<Finding>();
        var suppressed = new List<Finding>();
        foreach (var c in chosen)
        {
            var facts = c.Reach.Facts;
            var main = views[(c.Shown[0], facts.Key)];
            var ordinal = ordinals.Of(facts);
            var layer = c.Suppressed || !SiteReach.HasLayer(facts) ? null : Layer.From(c.Reach.Through, c.Roots.Count);
            var byReach = SiteReach.ErrorByReach(main.Severity, facts, c.Roots);
            var severity = byReach ? Severity.Error : main.Severity;
            var advice = layer is null ? main.Advice : main.Advice + " " + layer.Advice(facts.In.ShortName);
            var finding = new Finding(FindingId.For(ordinals.ProjectOf(facts), facts.In.FullName, facts.Call.Name, ordinal), facts.Call, severity, main.Root, main.Chain, main.Context, main.Reasons, advice)
            {
                Layer = layer,
                ByReach = byReach,
                IdWithoutProject = FindingId.WithoutProject(facts.In.FullName, facts.Call.Name, ordinal),
                Roots = [.. c.Roots.Select(h => new SiteRoot(all[h.Root], h.Severity, h.Depth))],
                OtherChains = [.. c.Shown.Skip(1).Select(r => new RootChain(all[r], views[(r, facts.Key)].Chain, views[(r, facts.Key)].Reasons))],
                Suppression = c.Suppressed ? main.Suppression ?? "" : null,
                RunsOnce = main.RunsOnce,
                ChainFiles = c.Reach.ChainFiles,
                Evidence = main.Dispatch is null ? facts.Evidence : facts.Evidence is null ? main.Dispatch : $"{facts.Evidence}; {main.Dispatch}",
            };
            (c.Suppressed ? suppressed : findings).Add(finding);
        }
        progress.Status("");
        return (findings, suppressed);
    }

    // The bodies the walks will read, bound first level by level, one per core: walks from entry points that share code
    // would otherwise wait on the same body while the other core idles. What the walks reach beyond (DI constructors)
    // is bound when they reach it; the walks' results do not depend on this.
    private void Bind(IReadOnlyList<EntryPoint> all, ParallelOptions options, IScanProgress progress)
    {
        var seen = new ConcurrentDictionary<CodeNode, byte>();
        var frontier = all.Select(r => r.Node).Where(n => seen.TryAdd(n, 0)).ToList();
        for (var depth = 0; depth < maxDepth && frontier.Count > 0; depth++)
        {
            var next = new ConcurrentBag<CodeNode>();
            Parallel.ForEach(frontier, options, node =>
            {
                foreach (var edge in graph.Facts(node).Edges)
                {
                    if (seen.TryAdd(edge.Target, 0))
                    {
                        next.Add(edge.Target);
                    }
                }
            });
            frontier = [.. next];
            progress.Status(FormattableString.Invariant($"reading methods: {graph.NodesRead} read, {frontier.Count} more"));
        }
    }

    private void Note(int index, RootWalk walk)
    {
        var root = walk.Root;
        var requestPath = PlaceWords.IsRequestPath(root.Place);
        var singleton = root.Place == CodePlace.DiFactory && root.Lifetime == "singleton";
        foreach (var node in walk.Order)
        {
            var step = walk[node];
            List<CodeNode>? way = null;
            var once = singleton;
            foreach (var site in _catalogue.Of(node))
            {
                if (site.RequestPathOnly && !requestPath)
                {
                    continue;
                }
                if (way is null)
                {
                    (way, var onceOnTheWay) = walk.Way(node);
                    once |= onceOnTheWay;
                }
                var hit = new SiteHit(index, RootView.SeverityOf(root, site, step), step.Depth, step.Cost, Ignored(walk, site))
                {
                    EveryRequest = requestPath && !once,
                };
                _sites.GetOrAdd(site.Key, _ => new SiteReach(site)).Add(hit, way);
            }
        }
    }

    // A tplab-ignore on the blocking call, or on a call of the chain from this entry point.
    private bool Ignored(RootWalk walk, SiteFacts site) =>
        IgnoredAt(site.Site) || walk.EdgeSites(site.In).Any(IgnoredAt);

    private bool IgnoredAt(Location location) => _ignored.GetOrAdd(location, l => InlineIgnore.At(l) is not null);
}
