using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Incremental;

/// <summary>
/// A <see cref="ScanResult"/> as the cache keeps it, and back: every finding (suppressed ones too) with its chains and
/// entry points by index, the projects and the figures. Entry points come back as the reports name them, without
/// symbols: enough for text, JSON, SARIF, the baseline and <c>--changed-since</c>, not for <c>--plan</c> (which reads
/// the code, so it never reuses the cache).
/// </summary>
internal sealed record CachedResult(
    string Root, string? Solution, IReadOnlyList<string> Projects, IReadOnlyList<CachedEntry> EntryPoints,
    IReadOnlyList<CachedFinding> Findings, IReadOnlyList<CachedFinding> Suppressed, IReadOnlyList<string> Analysed,
    IReadOnlyList<CachedProject> Skipped, IReadOnlyList<CachedProject> ReadInPart, IReadOnlyList<string> LeftOutTests,
    IReadOnlyList<string> SharedErrors, int EntryPointCount, int MethodsRead, int Unknown, int MaxDepth, int WalksAtMaxDepth, bool RequestCodeRead)
{
    /// <summary>The entry points the result's findings name, in the order <see cref="From"/> numbers them.</summary>
    public static IReadOnlyList<EntryPoint> EntryOrder(ScanResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var order = new List<EntryPoint>();
        var seen = new HashSet<EntryPoint>(ReferenceEqualityComparer.Instance);
        foreach (var f in result.Findings.Concat(result.Suppressed))
        {
            foreach (var e in f.Roots.Select(r => r.Root).Prepend(f.Root).Concat(f.OtherChains.Select(c => c.Root)))
            {
                if (seen.Add(e))
                {
                    order.Add(e);
                }
            }
        }
        return order;
    }

    public static CachedResult From(ScanResult result)
    {
        var order = EntryOrder(result);
        var index = new Dictionary<EntryPoint, int>(ReferenceEqualityComparer.Instance);
        for (var i = 0; i < order.Count; i++)
        {
            index[order[i]] = i;
        }
        var entries = order.Select(e => new CachedEntry(e.Node.TypeName, e.Node.MethodName, e.Node.DisplayName, e.Node.RelativePath, e.Node.Line, e.Node.IsLambda,
            e.Place, e.Endpoint, e.Guards, e.Lifetime, e.Service)).ToList();
        int Of(EntryPoint e) => index[e];
        CachedFinding Finding(Finding f) => new(f.Id, f.Call, f.Severity, Of(f.Root), f.Chain, f.Context, f.Reasons, f.Advice,
            [.. f.Roots.Select(r => new CachedSiteRoot(Of(r.Root), r.Severity, r.Depth))],
            [.. f.OtherChains.Select(c => new CachedChain(Of(c.Root), c.Chain, c.Reasons))],
            f.Evidence, f.Suppression, f.RunsOnce, f.Baselined, f.IdWithoutProject, f.ChainFiles, f.Layer, f.ByReach);
        var findings = result.Findings.Select(Finding).ToList();
        var suppressed = result.Suppressed.Select(Finding).ToList();
        static CachedProject Project(SkippedProject p) => new(p.Name, p.Reason, p.Details);
        return new CachedResult(result.Input.Root, result.Input.Solution, result.Input.Projects, entries, findings, suppressed, result.Analysed,
            [.. result.Skipped.Select(Project)], [.. result.ReadInPart.Select(Project)], result.LeftOutTests, result.SharedErrors,
            result.EntryPoints, result.MethodsRead, result.Unknown, result.MaxDepth, result.WalksAtMaxDepth, result.RequestCodeRead);
    }

    /// <summary>The result again, its load time being <paramref name="checkTime"/> (what this run spent) and its analysis none.</summary>
    public ScanResult ToResult(TimeSpan checkTime)
    {
        var entries = EntryPoints.Select(e => new EntryPoint(new CodeNode(e.TypeName, e.MethodName, e.DisplayName, e.File, e.Line, e.IsLambda), e.Place, e.Endpoint)
        {
            Guards = e.Guards,
            Lifetime = e.Lifetime,
            Service = e.Service,
        }).ToList();
        var (findings, suppressed) = FindingsWith(entries);
        static SkippedProject Project(CachedProject p) => new(p.Name, p.Reason) { Details = p.Details };
        return new ScanResult(new ScanInput(Root, Solution, Projects), findings, suppressed, Analysed,
            [.. Skipped.Select(Project)], LeftOutTests, EntryPointCount, MethodsRead, checkTime, TimeSpan.Zero)
        {
            ReadInPart = [.. ReadInPart.Select(Project)],
            SharedErrors = SharedErrors,
            Unknown = Unknown,
            MaxDepth = MaxDepth,
            WalksAtMaxDepth = WalksAtMaxDepth,
            RequestCodeRead = RequestCodeRead,
        };
    }

    /// <summary>The findings and suppressed ones again, their entry points <paramref name="entries"/> (by <see cref="EntryPoints"/>' indexes).</summary>
    public (List<Finding> Findings, List<Finding> Suppressed) FindingsWith(IReadOnlyList<EntryPoint> entries)
    {
        Finding Finding(CachedFinding f) => new(f.Id, f.Call, f.Severity, entries[f.Root], f.Chain, f.Context, f.Reasons, f.Advice)
        {
            Roots = [.. f.Roots.Select(r => new SiteRoot(entries[r.Root], r.Severity, r.Depth))],
            OtherChains = [.. f.OtherChains.Select(c => new RootChain(entries[c.Root], c.Chain, c.Reasons))],
            Evidence = f.Evidence,
            Suppression = f.Suppression,
            RunsOnce = f.RunsOnce,
            Baselined = f.Baselined,
            IdWithoutProject = f.IdWithoutProject,
            ChainFiles = f.ChainFiles,
            Layer = f.Layer,
            ByReach = f.ByReach,
        };
        return ([.. Findings.Select(Finding)], [.. Suppressed.Select(Finding)]);
    }

    // CallContext is a set of flags: any combination of the defined ones is a value a scan writes.
    private static readonly int ContextFlags = Enum.GetValues<CallContext>().Aggregate(0, (all, flag) => all | (int)flag);

    /// <summary>This result, or the first thing in it no scan writes (an index out of range, a missing name, an empty chain, an unknown word) as a reason.</summary>
    public string? Invalid()
    {
        bool Text(params string?[] values) => values.All(v => v is not null);
        bool Entry(int i) => i >= 0 && i < EntryPoints.Count;
        bool Hops(IReadOnlyList<ChainHop>? chain) => chain is { Count: > 0 } && chain.All(h => h is not null && Text(h.Method, h.Display, h.File) && h.Line > 0 && h.Column > 0);
        bool Words(IReadOnlyList<string>? list) => list is not null && list.All(s => s is not null);
        bool Found(CachedFinding? f) => f is not null && Text(f.Id, f.Advice, f.IdWithoutProject) && Entry(f.Root) && Hops(f.Chain)
            && f.Call is { Name: not null, Frame: { Module: not null, TypeName: not null, MethodName: not null } } && Enum.IsDefined(f.Call.Kind)
            && Enum.IsDefined(f.Severity) && ((int)f.Context & ~ContextFlags) == 0 && Words(f.Reasons) && Words(f.ChainFiles)
            && (f.Layer is null || (Text(f.Layer.Method, f.Layer.Display) && f.Layer.Through > 0 && f.Layer.Through <= f.Layer.Of))
            && f.Roots is { Count: > 0 } && f.Roots.All(r => r is not null && Entry(r.Root) && Enum.IsDefined(r.Severity) && r.Depth >= 0)
            && f.OtherChains is not null && f.OtherChains.All(c => c is not null && Entry(c.Root) && Hops(c.Chain) && Words(c.Reasons));
        bool Point(CachedEntry? e) => e is not null && Text(e.TypeName, e.MethodName, e.DisplayName, e.File) && e.Line > 0 && Enum.IsDefined(e.Place)
            && Words(e.Guards) && (e.Endpoint is null || Text(e.Endpoint.Method, e.Endpoint.Route));
        bool Project(CachedProject? p) => p is not null && Text(p.Name, p.Reason) && Words(p.Details);
        return !Text(Root) || !Path.IsPathFullyQualified(Root) || !Words(Projects) || !Words(Analysed) || !Words(LeftOutTests) || !Words(SharedErrors)
                ? "a project or folder is missing"
            : EntryPoints is null || !EntryPoints.All(Point) ? "an entry point is incomplete"
            : Findings is null || Suppressed is null || !Findings.Concat(Suppressed).All(Found) ? "a finding is incomplete"
            : Skipped is null || ReadInPart is null || !Skipped.Concat(ReadInPart).All(Project) ? "a project's reason is missing"
            : EntryPointCount < 0 || MethodsRead < 0 || Unknown < 0 || MaxDepth is < 2 or > ScanOptions.MaxMaxDepth || WalksAtMaxDepth < 0 ? "a figure is out of range"
            : null;
    }
}
