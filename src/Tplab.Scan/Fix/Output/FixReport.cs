using System.Globalization;
using System.Text.Json.Serialization;
using Tplab.Common.Json;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// <c>tplab fix</c>'s reports: the patch (a unified diff for <c>git apply</c>), the text summary for people, the JSON
/// for machines (docs/schemas/fix.schema.json, versioned by <c>schema</c>), which carries the patch too, and SARIF with
/// fixes for code-scanning viewers (<see cref="FixSarif"/>).
/// </summary>
public static class FixReport
{
    /// <summary>Bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = 1;

    private static readonly FixReportJson Json = new(TplabJson.Options(indented: true));

    public static void Write(FixResult result, string format, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        switch (format)
        {
            case "patch":
                writer.Write(result.Patch);
                break;
            case "sarif":
                FixSarif.Write(result, writer);
                break;
            case "json":
                TplabJson.Write(ToDocument(result), Json.FixDocument, writer);
                break;
            default:
                Text(result, writer);
                break;
        }
    }

    /// <summary>The status word JSON and text use.</summary>
    public static string StatusId(FixStatus status) => status switch
    {
        FixStatus.Fixed => "fixed",
        FixStatus.PartlyFixed => "partly-fixed",
        _ => "refused",
    };

    /// <summary>One line per finding and its details, then the totals.</summary>
    public static void Text(FixResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        foreach (var o in result.Outcomes)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{StatusId(o.Status)}  {o.Id}  {o.BlockingCall} in {o.UserMethod} ({o.File}:{o.Line})"));
            writer.WriteLine($"    reached from {string.Join(", ", o.Roots)}");
            foreach (var c in o.Changes)
            {
                writer.WriteLine($"    {c}");
            }
            foreach (var t in o.Touched)
            {
                writer.WriteLine($"    changed {t.File}: {Lines(t.Lines)}");
            }
            if (o.Reason is not null)
            {
                writer.WriteLine($"    {(o.Status == FixStatus.Refused ? "why" : "left")}: {o.Reason}");
            }
            if (o.Check is not null && o.Reason?.Contains(o.Check, StringComparison.Ordinal) != true)
            {
                writer.WriteLine($"    check: {o.Check}");
            }
            foreach (var b in o.Boundaries)
            {
                writer.WriteLine($"    boundary: {b}");
            }
            foreach (var n in o.Notes)
            {
                writer.WriteLine($"    note: {n}");
            }
        }
        writer.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"tplab fix: {result.Count(FixStatus.Fixed)} fixed, {result.Count(FixStatus.PartlyFixed)} partly fixed, {result.Count(FixStatus.Refused)} refused; {result.Files.Count} file(s) {(result.Applied ? "written" : "in the patch")}"));
    }

    // 3, 5-7, 12
    private static string Lines(IReadOnlyList<int> lines)
    {
        var parts = new List<string>();
        for (var i = 0; i < lines.Count; i++)
        {
            var start = lines[i];
            while (i + 1 < lines.Count && lines[i + 1] == lines[i] + 1)
            {
                i++;
            }
            parts.Add(start == lines[i] ? start.ToString(CultureInfo.InvariantCulture) : string.Create(CultureInfo.InvariantCulture, $"{start}-{lines[i]}"));
        }
        return parts.Count == 0 ? "(none)" : "lines " + string.Join(", ", parts);
    }

    internal static FixDocument ToDocument(FixResult r) => new(
        SchemaVersion,
        r.Scanned,
        r.Applied,
        new FixSummaryDocument(r.Count(FixStatus.Fixed), r.Count(FixStatus.PartlyFixed), r.Count(FixStatus.Refused), r.Files.Count),
        [.. r.Outcomes.Select(o => new FixOutcomeDocument(o.Id, StatusId(o.Status), o.BlockingCall, o.UserMethod, o.File, o.Line, o.Roots, o.Reason, o.Check, o.Changes,
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
