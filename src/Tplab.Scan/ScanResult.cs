using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Loading;

namespace Tplab.Scan;

/// <summary>
/// What a scan found and what it read: one finding per blocking site (suppressed ones apart), the projects analysed,
/// analysed in part and skipped, and the figures of the run.
/// </summary>
public sealed record ScanResult(
    ScanInput Input,
    IReadOnlyList<Finding> Findings,
    IReadOnlyList<Finding> Suppressed,
    IReadOnlyList<string> Analysed,
    IReadOnlyList<SkippedProject> Skipped,
    IReadOnlyList<string> LeftOutTests,
    int EntryPoints,
    int MethodsRead,
    TimeSpan LoadTime,
    TimeSpan AnalysisTime)
{
    /// <summary>Errors MSBuild reported for several projects (a solution's restore errors), said once.</summary>
    public IReadOnlyList<string> SharedErrors { get; init; } = [];

    /// <summary>The one line that says <see cref="SharedErrors"/>, or null.</summary>
    public string? SharedErrorsLine => SharedErrors.Count == 0 ? null : "MSBuild errors in several projects: " + SkippedProject.OneLine(SharedErrors);

    /// <summary>
    /// Calls on the paths followed that source could not resolve (a package missing, an error type): neither followed
    /// nor judged, so never a finding; counted here so that a partial read is not taken for a clean one.
    /// </summary>
    public int Unknown { get; init; }

    /// <summary>The longest chain followed from an entry point, in calls (<c>--max-depth</c>).</summary>
    public int MaxDepth { get; init; } = ScanOptions.DefaultMaxDepth;

    /// <summary>Entry points whose walk reached <see cref="MaxDepth"/> with calls still to follow: what lies deeper was not read.</summary>
    /// <summary>The walks by keys, for the scan cache (<c>Incremental/CachedWalks</c>); null for a result the cache gave back.</summary>
    internal Incremental.CachedWalks? Walks { get; init; }

    public int WalksAtMaxDepth { get; init; }

    /// <summary>The one line that says the depth bound cut some walks, or null.</summary>
    public string? MaxDepthLine => WalksAtMaxDepth == 0 ? null : string.Create(System.Globalization.CultureInfo.InvariantCulture,
        $"depth bound: {WalksAtMaxDepth} entry point(s) call deeper than {MaxDepth} calls; the walk stopped there (--max-depth raises it, up to {ScanOptions.MaxMaxDepth})");

    /// <summary>Projects analysed without some of their references (named once, not also as skipped).</summary>
    public IReadOnlyList<SkippedProject> ReadInPart { get; init; } = [];

    /// <summary>
    /// Whether code that serves requests was read: an entry point on the request path (an endpoint, a middleware, a
    /// filter...) was found. When not, a clean report says nothing about request paths.
    /// </summary>
    public bool RequestCodeRead { get; init; } = true;

    /// <summary>A project could not be read, or only in part: the findings may miss what it holds.</summary>
    public bool Partial => Skipped.Count > 0 || ReadInPart.Count > 0;

    /// <summary>Findings at <paramref name="severity"/>, baselined ones left out.</summary>
    public int Count(Severity severity) => Findings.Count(f => f.Severity == severity && !f.Baselined);

    /// <summary>Findings at or above <paramref name="severity"/> that are not in the baseline (what --fail-on counts).</summary>
    public int AtLeast(Severity severity) => Findings.Count(f => f.Severity >= severity && !f.Baselined);

    public int Baselined => Findings.Count(f => f.Baselined);

    /// <summary>The line that says no request-serving code was read, or null when some was.</summary>
    public string? NoRequestCodeLine => RequestCodeRead ? null
        : Skipped.Count + ReadInPart.Count > 0
            ? $"no project that serves requests was read ({Skipped.Count} skipped, {ReadInPart.Count} read in part): this scan says nothing about request paths"
            : "no code that serves requests was found (no controller, endpoint, middleware, filter or hub): this scan says nothing about request paths";

    internal static bool IsRequestRoot(Roots.EntryPoint root) => PlaceWords.IsRequestPath(root.Place);
}
