using Tplab.Common.Output;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// The catalogue of <c>tplab fix --format</c>, chosen as scan chooses (<see cref="FormatCatalogue{TFormat}.Resolve"/>):
/// the name given, else the one the <c>-o</c> file's extension means (<c>.patch</c>/<c>.diff</c>, <c>.txt</c>,
/// <c>.json</c>, <c>.sarif</c>), else the patch, or the text report with <c>--apply</c>. Each format writes itself.
/// </summary>
public static class FixFormats
{
    public static IFixFormat Patch { get; } = new FixPatchFormat();

    public static IFixFormat Text { get; } = new FixTextFormat();

    public static FormatCatalogue<IFixFormat> Catalogue { get; } = new(Patch, Text, new FixJsonFormat(), new FixSarifFormat());

    /// <summary>The format of a run: <paramref name="name"/>, else <paramref name="output"/>'s extension, else patch (text with <paramref name="apply"/>).</summary>
    public static IFixFormat For(string? name, string? output, bool apply) => Catalogue.Resolve(name, output, apply ? Text : Patch);

    /// <summary>The status word every format uses.</summary>
    public static string StatusId(FixStatus status) => status switch
    {
        FixStatus.Fixed => "fixed",
        FixStatus.PartlyFixed => "partly-fixed",
        _ => "refused",
    };
}
