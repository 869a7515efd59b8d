using Tplab.Common.Output;

namespace Tplab.Scan.Fix.Output;

/// <summary>One format of <c>tplab fix</c>'s output (<see cref="FixReport.Write"/> writes it).</summary>
public sealed record FixFormat(string Name, string Description, IReadOnlyList<string> Extensions, bool MachineReadable) : IOutputFormat;

/// <summary>
/// The catalogue of <c>tplab fix --format</c>, chosen as scan chooses (<see cref="FormatCatalogue{TFormat}.Resolve"/>):
/// the name given, else the one the <c>-o</c> file's extension means (<c>.patch</c>/<c>.diff</c>, <c>.txt</c>,
/// <c>.json</c>, <c>.sarif</c>), else the patch, or the text report with <c>--apply</c>.
/// </summary>
public static class FixFormats
{
    public static FixFormat Patch { get; } = new("patch", "a unified diff that git apply takes", [".patch", ".diff"], true);

    public static FixFormat Text { get; } = new("text", "per finding: fixed, partly fixed or refused, with the lines changed and the reasons", [".txt"], false);

    public static FixFormat Json { get; } = new("json", "the report and the patch for machines (docs/schemas/fix.schema.json)", [".json"], true);

    public static FixFormat Sarif { get; } = new("sarif", "SARIF 2.1.0 with fixes (replacements) for code-scanning viewers", [".sarif"], true);

    public static FormatCatalogue<FixFormat> Catalogue { get; } = new(Patch, Text, Json, Sarif);

    /// <summary>The format of a run: <paramref name="name"/>, else <paramref name="output"/>'s extension, else patch (text with <paramref name="apply"/>).</summary>
    public static FixFormat For(string? name, string? output, bool apply) => Catalogue.Resolve(name, output, apply ? Text : Patch);
}
