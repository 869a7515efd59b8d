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
internal sealed class FindingBuilder(CallGraph graph, LockAnalysis locks, RootSet roots, int maxDepth, PriorWalks? prior = null)
{
    /// <summary>Other entry points' chains kept per site (SARIF code flows beyond the first).</summary>
    public const int OtherChains = 2;

    private readonly SiteCatalogue _catalogue = new(graph, locks);
    private readonly ConcurrentDictionary<object, SiteReach> _sites = new(ReferenceEqualityComparer.Instance);
    private readonly ConcurrentDictionary<Location, bool> _ignored = new();

    /// <summary>Whether <see cref="Records"/> are kept (the scan's cache and figures; the analyzer has no use for them).</summary>
    public bool KeepsWalks { get; init; }

    /// <summary>Every entry point's walk by keys, in the roots' order (known after <see cref="Build"/> when <see cref="KeepsWalks"/>).</summary>
    public IReadOnlyList<WalkRecord> Records { get; private set; } = [];

    /// <summary>The chains shown, by entry point and site key (known after <see cref="Build"/>; the scan cache keeps them).</summary>
    public IReadOnlyDictionary<(int Root, string Site), RootView> Views { get; private set; } = new Dictionary<(int, string), RootView>();

    /// <summary>The site key of every finding <see cref="Build"/> returned, suppressed ones too.</summary>
    public IReadOnlyDictionary<Finding, string> SiteKeys { get; private set; } = new Dictionary<Finding, string>();

    /// <summary>How many entry points' walks reached the depth bound with calls still to follow (known after <see cref="Build"/>).</summary>
    public int WalksAtMaxDepth => _cut;

    private int _cut;

    /// <summary>The sites one entry point reaches, as if it were the only one, suppressed ones included (the rules' tests read them).</summary>
    public IReadOnlyList<Finding> For(EntryPoint root)
    {
        var (findings, suppressed) = new FindingBuilder(graph, locks, roots with { Roots = [root] }, maxDepth).Build(SilentProgress.Instance, CancellationToken.None);
        return [.. findings, .. suppressed];
    }

    /// <summary>
    /// Every site reached from the entry points, with its roots; suppressed ones (every way in ignored) apart. With a
    /// <see cref="PriorWalks"/>, only the entry points it names are walked again, only the sites they reach (now or
    /// before) are judged again, and every other finding is the cached scan's.
    /// </summary>
    public (List<Finding> Findings, List<Finding> Suppressed) Build(IScanProgress progress, CancellationToken cancellationToken)
    {
        var all = roots.Roots;
        var index = graph.Index;
        var records = new WalkRecord[all.Count];
        var walked = prior is null ? [.. Enumerable.Range(0, all.Count)] : prior.Affected.Order().ToList();
        var done = 0;
        // Binding method bodies is the cost, and Roslyn's models are thread-safe: entry points are walked in parallel, one
        // worker per core (a walk that waits for a body another is binding would otherwise make the pool add threads,
        // each allocating, and the GC stops them all).
        var options = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = index.Workers };
        Bind([.. walked.Select(i => all[i])], options, progress);
        Parallel.For(0, walked.Count, options, k =>
        {
            var i = walked[k];
            var walk = RootWalk.From(all[i], graph, roots, maxDepth);
            var hits = Note(i, walk);
            if (walk.ReachedMaxDepth)
            {
                Interlocked.Increment(ref _cut);
            }
            if (KeepsWalks)
            {
                records[i] = WalkRecord.Of(walk, hits, graph);
            }
            var n = Interlocked.Increment(ref done);
            progress.Status(FormattableString.Invariant($"following calls: {n}/{walked.Count} entry points, {graph.NodesRead} methods read, {_sites.Count} blocking sites"));
        });
        var reaches = _sites.Values.ToDictionary(r => WalkKeys.Site(r.Facts, index), StringComparer.Ordinal);
        var judged = reaches.Keys.ToHashSet(StringComparer.Ordinal);
        if (prior is not null)
        {
            judged = prior.Rejudged(judged);
            Carry(prior, records, reaches, judged);
        }
        Records = KeepsWalks ? records : [];

        var chosen = reaches.Values.Select(s => s.Choose(all)).ToList();
        // Each entry point whose chain is shown is walked once more, for all the sites it shows (a chain the cached scan
        // showed from an entry point not walked again is the cached one).
        var views = new ConcurrentDictionary<(int Root, string Site), RootView>();
        var shown = chosen.SelectMany(c => c.Shown.Select(r => (Root: r, Site: c, Key: WalkKeys.Site(c.Reach.Facts, index)))).ToList();
        var byRoot = shown.Where(x => prior?.View(x.Root, x.Key) is not { } cached || !views.TryAdd((x.Root, x.Key), cached)).GroupBy(x => x.Root).ToList();
        done = 0;
        Parallel.ForEach(byRoot, options, group =>
        {
            var walk = RootWalk.From(all[group.Key], graph, roots, maxDepth);
            foreach (var (_, site, key) in group)
            {
                views[(group.Key, key)] = RootView.Of(walk, site.Reach.Facts);
            }
            var n = Interlocked.Increment(ref done);
            progress.Status(FormattableString.Invariant($"writing chains: {n}/{byRoot.Count} entry points"));
        });

        var ordinals = new SiteOrdinals(index, _catalogue);
        var findings = new List<Finding>();
        var suppressed = new List<Finding>();
        var keys = new Dictionary<Finding, string>(ReferenceEqualityComparer.Instance);
        foreach (var c in chosen)
        {
            var facts = c.Reach.Facts;
            var key = WalkKeys.Site(facts, index);
            var main = views[(c.Shown[0], key)];
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
                OtherChains = [.. c.Shown.Skip(1).Select(r => new RootChain(all[r], views[(r, key)].Chain, views[(r, key)].Reasons))],
                Suppression = c.Suppressed ? main.Suppression ?? "" : null,
                RunsOnce = main.RunsOnce,
                ChainFiles = c.Reach.ChainFiles,
                Evidence = main.Dispatch is null ? facts.Evidence : facts.Evidence is null ? main.Dispatch : $"{facts.Evidence}; {main.Dispatch}",
            };
            (c.Suppressed ? suppressed : findings).Add(finding);
            keys[finding] = key;
        }
        // The sites no entry point walked again reaches, and no edited method holds: the cached scan's findings and chains.
        foreach (var (finding, isSuppressed, key) in prior?.Findings.Where(f => !judged.Contains(f.Site)) ?? [])
        {
            (isSuppressed ? suppressed : findings).Add(finding);
            keys[finding] = key;
            foreach (var r in finding.OtherChains.Select(c => c.Root).Prepend(finding.Root).Select(root => prior!.RootIndex(root)))
            {
                views.TryAdd((r, key), prior!.View(r, key) ?? throw new PriorWalksMismatch($"the cached chain to {key} is missing"));
            }
        }
        Views = views;
        SiteKeys = keys;
        progress.Status("");
        return (findings, suppressed);
    }

    // The entry points not walked again: their records as cached, and their reach of every site judged again noted as
    // a walk would have (the site and the methods on each way found again in this scan's code).
    private void Carry(PriorWalks prior, WalkRecord[] records, Dictionary<string, SiteReach> reaches, HashSet<string> judged)
    {
        var index = graph.Index;
        var nodes = new Dictionary<string, CodeNode>(StringComparer.Ordinal);
        CodeNode Node(string key)
        {
            if (!nodes.TryGetValue(key, out var node))
            {
                node = nodes[key] = WalkKeys.FindNode(key, index) ?? throw new PriorWalksMismatch($"the method {key} is not where the cached scan found it");
            }
            return node;
        }
        for (var i = 0; i < records.Length; i++)
        {
            if (prior.Affected.Contains(i))
            {
                continue;
            }
            var record = records[i] = prior.Records[i];
            _cut += record.Cut ? 1 : 0;
            foreach (var hit in record.Hits.Where(h => judged.Contains(h.Site)))
            {
                if (!reaches.TryGetValue(hit.Site, out var reach))
                {
                    var facts = _catalogue.Of(Node(hit.Way[0])).FirstOrDefault(s => WalkKeys.Site(s, index) == hit.Site)
                        ?? throw new PriorWalksMismatch($"the site {hit.Site} is not where the cached scan found it");
                    reaches[hit.Site] = reach = new SiteReach(facts);
                }
                reach.Add(hit.Hit with { Root = i }, [.. hit.Way.Select(Node)]);
            }
        }
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

    private List<WalkHit> Note(int index, RootWalk walk)
    {
        var root = walk.Root;
        var requestPath = PlaceWords.IsRequestPath(root.Place);
        var singleton = root.Place == CodePlace.DiFactory && root.Lifetime == "singleton";
        var hits = new List<WalkHit>();
        foreach (var node in walk.Order)
        {
            var step = walk[node];
            List<CodeNode>? way = null;
            List<string>? wayKeys = null;
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
                    wayKeys = KeepsWalks ? [.. way.Select(n => WalkKeys.Node(n, graph.Index))] : null;
                }
                var hit = new SiteHit(index, RootView.SeverityOf(root, site, step), step.Depth, step.Cost, Ignored(walk, site))
                {
                    EveryRequest = requestPath && !once,
                };
                _sites.GetOrAdd(site.Key, _ => new SiteReach(site)).Add(hit, way);
                if (KeepsWalks)
                {
                    hits.Add(new WalkHit(WalkKeys.Site(site, graph.Index), hit, wayKeys!));
                }
            }
        }
        return hits;
    }

    // A tplab-ignore on the blocking call, or on a call of the chain from this entry point.
    private bool Ignored(RootWalk walk, SiteFacts site) =>
        IgnoredAt(site.Site) || walk.EdgeSites(site.In).Any(IgnoredAt);

    private bool IgnoredAt(Location location) => _ignored.GetOrAdd(location, l => InlineIgnore.At(l) is not null);
}
