using System.Text.Json;
using Tplab.Common.Json;
using System.Text.Json.Serialization;
using Tplab.Blocking;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Output;

/// <summary>The report for machines: documented in docs/scan.md, validated by docs/schemas/scan.schema.json, versioned by <c>schema</c>.</summary>
public sealed class ScanJsonFormat : IScanFormat
{
    /// <summary>Bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = 1;

    public string Name => "json";

    public IReadOnlyList<string> Extensions => [".json"];

    public string Description => "for machines: every finding with endpoint, place, user frame, blocking call, chain, severity, advice";

    // tplab's one set of JSON options (readable escaping: Program.<Main>$ and arrows stay as written; "\n" endings).
    private static readonly ScanReportJson Json = new(TplabJson.Options(indented: true));

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

    internal static ScanDocument ToDocument(ScanResult r) => new(
        SchemaVersion,
        new ToolDocument("tplab", typeof(ScanJsonFormat).Assembly.GetName().Version?.ToString(3) ?? "0"),
        r.Input.DisplayName,
        new ProjectsDocument(r.Analysed, [.. r.Skipped.Select(s => new SkippedDocument(s.Name, s.Reason))], r.LeftOutTests),
        new SummaryDocument(r.Count(Severity.Error), r.Count(Severity.Warning), r.Count(Severity.Note), r.Baselined, r.Suppressed.Count,
            r.EntryPoints, r.MethodsRead, Math.Round(r.LoadTime.TotalSeconds, 3), Math.Round(r.AnalysisTime.TotalSeconds, 3), r.Partial),
        [.. r.Findings.Select(Finding)]);

    private static FindingDocument Finding(Finding f) => new(
        SeverityId(f.Severity),
        f.Root.Endpoint is { } e ? new EndpointDocument(e.Method, e.Route) : null,
        f.Root.Key,
        PlaceWords.Id(f.Root.Place),
        f.Root.Guards,
        f.UserFrame,
        f.Call.Name,
        PlaceWords.KindId(f.Call.Kind),
        f.Call.On,
        [.. f.Chain.Select(h => new HopDocument(h.Method, h.File, h.Line, h.Column, h.Via))],
        PlaceWords.ContextIds(f.Context),
        f.Reasons,
        f.Advice,
        f.Baselined);
}

internal sealed record ScanDocument(int Schema, ToolDocument Tool, string Scanned, ProjectsDocument Projects, SummaryDocument Summary, IReadOnlyList<FindingDocument> Findings);

internal sealed record ToolDocument(string Name, string Version);

internal sealed record ProjectsDocument(IReadOnlyList<string> Analysed, IReadOnlyList<SkippedDocument> Skipped, IReadOnlyList<string> LeftOutTests);

internal sealed record SkippedDocument(string Project, string Reason);

internal sealed record SummaryDocument(int Errors, int Warnings, int Notes, int Baselined, int Suppressed, int EntryPoints, int MethodsFollowed,
    double LoadSeconds, double AnalysisSeconds, bool Partial);

internal sealed record FindingDocument(
    string Severity, EndpointDocument? Endpoint, string Root, string Place, IReadOnlyList<string> Guards, string UserFrame, string BlockingCall,
    string BlockingKind, string? BlockingOn, IReadOnlyList<HopDocument> Chain, IReadOnlyList<string> Context, IReadOnlyList<string> Reasons,
    string Advice, bool Baselined);

internal sealed record EndpointDocument(string Method, string Route);

internal sealed record HopDocument(string Method, string File, int Line, int Column, string? Via);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.Never)]
[JsonSerializable(typeof(ScanDocument))]
internal sealed partial class ScanReportJson : JsonSerializerContext;
