using System.Text.Json.Serialization;
using Tplab.Blocking;
using Tplab.Common.Json;
using Tplab.Scan.Findings;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Output;

/// <summary>
/// The report for machines: documented in docs/scan.md, validated by docs/schemas/scan.schema.json, versioned by
/// <c>schema</c>. One finding per blocking site; the entry points that reach sites are listed once
/// (<c>entryPoints</c>) and each finding names its own by index, so the file grows with sites, not roots × sites.
/// </summary>
public sealed class ScanJsonFormat : IScanFormat
{
    /// <summary>
    /// Bumped when a field changes meaning or goes away (2: a finding is a site, with its entry points; 3: a finding's
    /// id names its project, so two projects declaring the same type give their sites two ids).
    /// </summary>
    public const int SchemaVersion = 3;

    /// <summary>The last schema whose ids did not name the project; <c>tplab fix --from</c> still reads it.</summary>
    internal const int SchemaWithoutProject = 2;

    public string Name => "json";

    public IReadOnlyList<string> Extensions => [".json"];

    public string Description => "for machines: every blocking site once, with its id, severity, the entry points that reach it, the worst one's chain, advice";

    // tplab's one set of JSON options (readable escaping: Program.<Main>$ and arrows stay as written; "\n" endings);
    // tplab fix --from reads the report back through it.
    internal static readonly ScanReportJson Json = new(TplabJson.Options(indented: true));

    public void Write(ScanResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        TplabJson.Write(ToDocument(result), Json.ScanDocument, writer);
    }

    /// <summary>The severity word for JSON and SARIF.</summary>
    public static string SeverityId(Severity severity) => severity switch
    {
        Severity.Error => "error",
        Severity.Warning => "warning",
        _ => "note",
    };

    internal static ScanDocument ToDocument(ScanResult r)
    {
        var entryPoints = EntryPoints(r.Findings);
        // By the entry point itself, never by its key: two actions with one route are two entries.
        var index = entryPoints.Select((e, i) => (e, i)).ToDictionary(x => x.e, x => x.i, (IEqualityComparer<EntryPoint>)ReferenceEqualityComparer.Instance);
        return new(
            SchemaVersion,
            new ToolDocument("tplab", typeof(ScanJsonFormat).Assembly.GetName().Version?.ToString(3) ?? "0"),
            r.Input.DisplayName,
            new ProjectsDocument(r.Analysed, [.. r.Skipped.Select(s => new SkippedDocument(s.Name, s.Reason))], r.LeftOutTests,
                [.. r.ReadInPart.Select(p => new InPartDocument(p.Name, p.Reason))], r.SharedErrors),
            new SummaryDocument(r.Count(Severity.Error), r.Count(Severity.Warning), r.Count(Severity.Note), r.Baselined, r.Suppressed.Count,
                r.Findings.Count, r.EntryPoints, entryPoints.Count, r.MethodsRead, Math.Round(r.LoadTime.TotalSeconds, 3), Math.Round(r.AnalysisTime.TotalSeconds, 3),
                r.Partial, r.RequestCodeRead, r.Unknown, r.MaxDepth, r.WalksAtMaxDepth),
            [.. entryPoints.Select(EntryPoint)],
            [.. r.Findings.Select(f => Finding(f, index))]);
    }

    /// <summary>The entry points that reach at least one reported site, in the order their first site is reported.</summary>
    internal static List<EntryPoint> EntryPoints(IEnumerable<Finding> findings)
    {
        var seen = new HashSet<EntryPoint>(ReferenceEqualityComparer.Instance);
        return [.. findings.SelectMany(f => f.Roots).Select(r => r.Root).Where(seen.Add)];
    }

    private static EntryPointDocument EntryPoint(EntryPoint e) => new(
        e.Key,
        e.Endpoint is { } ep ? new EndpointDocument(ep.Method, ep.Route) : null,
        PlaceWords.Id(e.Place),
        e.Node.FullName,
        e.Node.RelativePath,
        e.Node.Line,
        e.Guards);

    private static FindingDocument Finding(Finding f, Dictionary<EntryPoint, int> index) => new(
        f.Id,
        SeverityId(f.Severity),
        f.Site.File,
        f.Site.Line,
        f.Site.Column,
        f.UserFrame,
        f.Call.Name,
        PlaceWords.KindId(f.Call.Kind),
        f.Call.On,
        f.Evidence,
        f.Root.Endpoint is { } e ? new EndpointDocument(e.Method, e.Route) : null,
        f.Root.Key,
        PlaceWords.Id(f.Root.Place),
        f.Root.Guards,
        [.. f.Chain.Select(h => new HopDocument(h.Method, h.File, h.Line, h.Column, h.Via))],
        PlaceWords.ContextIds(f.Context),
        f.Reasons,
        f.Advice,
        f.Layer is { } l ? new LayerDocument(l.Method, l.Through) : null,
        f.ByReach,
        f.Baselined,
        f.Roots.Count,
        [.. f.Roots.Select(r => index[r.Root]).Distinct()],
        new SeveritiesDocument(f.Roots.Count(r => r.Severity == Severity.Error), f.Roots.Count(r => r.Severity == Severity.Warning), f.Roots.Count(r => r.Severity == Severity.Note)));
}

internal sealed record ScanDocument(int Schema, ToolDocument Tool, string Scanned, ProjectsDocument Projects, SummaryDocument Summary,
    IReadOnlyList<EntryPointDocument> EntryPoints, IReadOnlyList<FindingDocument> Findings);

internal sealed record ToolDocument(string Name, string Version);

internal sealed record ProjectsDocument(IReadOnlyList<string> Analysed, IReadOnlyList<SkippedDocument> Skipped, IReadOnlyList<string> LeftOutTests, IReadOnlyList<InPartDocument> ReadInPart,
    IReadOnlyList<string> SharedErrors);

internal sealed record SkippedDocument(string Project, string Reason);

internal sealed record InPartDocument(string Project, string Reason);

internal sealed record SummaryDocument(int Errors, int Warnings, int Notes, int Baselined, int Suppressed, int Sites, int EntryPoints, int EntryPointsReachingSites,
    int MethodsFollowed, double LoadSeconds, double AnalysisSeconds, bool Partial, bool RequestCodeRead, int Unknown, int MaxDepth, int WalksAtMaxDepth);

internal sealed record EntryPointDocument(string Key, EndpointDocument? Endpoint, string Place, string Method, string File, int Line, IReadOnlyList<string> Guards);

internal sealed record FindingDocument(
    string Id, string Severity, string File, int Line, int Column, string UserFrame, string BlockingCall, string BlockingKind, string? BlockingOn, string? Evidence,
    EndpointDocument? Endpoint, string Root, string Place, IReadOnlyList<string> Guards, IReadOnlyList<HopDocument> Chain, IReadOnlyList<string> Context,
    IReadOnlyList<string> Reasons, string Advice, LayerDocument? Layer, bool ByReach, bool Baselined, int RootCount, IReadOnlyList<int> Roots, SeveritiesDocument RootSeverities);

internal sealed record LayerDocument(string Method, int EntryPoints);

internal sealed record SeveritiesDocument(int Error, int Warning, int Note);

internal sealed record EndpointDocument(string Method, string Route);

internal sealed record HopDocument(string Method, string File, int Line, int Column, string? Via);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.Never)]
[JsonSerializable(typeof(ScanDocument))]
internal sealed partial class ScanReportJson : JsonSerializerContext;
