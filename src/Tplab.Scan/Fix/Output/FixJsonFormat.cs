using System.Text.Json.Serialization;
using Tplab.Common.Json;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// <c>tplab fix --format json</c>: the report for machines (docs/schemas/fix.schema.json, versioned by <c>schema</c>),
/// which carries the patch too.
/// </summary>
public sealed class FixJsonFormat : IFixFormat
{
    /// <summary>Bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = 1;

    private static readonly FixReportJson Json = new(TplabJson.Options(indented: true));

    public string Name => "json";

    public string Description => "the report and the patch for machines (docs/schemas/fix.schema.json)";

    public IReadOnlyList<string> Extensions => [".json"];

    public bool MachineReadable => true;

    public void Write(FixResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        TplabJson.Write(ToDocument(result), Json.FixDocument, writer);
    }

    internal static FixDocument ToDocument(FixResult r) => new(
        SchemaVersion,
        r.Scanned,
        r.Applied,
        new FixSummaryDocument(r.Count(FixStatus.Fixed), r.Count(FixStatus.PartlyFixed), r.Count(FixStatus.Refused), r.Files.Count),
        [.. r.Outcomes.Select(o => new FixOutcomeDocument(o.Id, FixFormats.StatusId(o.Status), o.BlockingCall, o.UserMethod, o.File, o.Line, o.Roots, o.Reason, o.Check, o.Changes,
            [.. o.Touched.Select(t => new TouchedDocument(t.File, t.Lines))], o.Boundaries, o.Notes))],
        [.. r.Files.Select(f => f.Relative)],
        r.Patch);
}

internal sealed record FixDocument(int Schema, string Scanned, bool Applied, FixSummaryDocument Summary, IReadOnlyList<FixOutcomeDocument> Findings, IReadOnlyList<string> Files, string Patch);

internal sealed record FixSummaryDocument(int Fixed, int PartlyFixed, int Refused, int Files);

internal sealed record FixOutcomeDocument(string Id, string Status, string BlockingCall, string UserFrame, string File, int Line, IReadOnlyList<string> Roots, string? Reason,
    string? Check, IReadOnlyList<string> Changes, IReadOnlyList<TouchedDocument> Touched, IReadOnlyList<string> Boundaries, IReadOnlyList<string> Notes);

internal sealed record TouchedDocument(string File, IReadOnlyList<int> Lines);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.Never)]
[JsonSerializable(typeof(FixDocument))]
internal sealed partial class FixReportJson : JsonSerializerContext;
