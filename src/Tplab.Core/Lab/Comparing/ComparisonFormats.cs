using Tplab.Common.Output;

namespace Tplab.Lab.Comparing;

/// <summary>The catalogue of <c>tplab compare --format</c>: text (the default), json, html.</summary>
public static class ComparisonFormats
{
    /// <summary>Every format, text first.</summary>
    public static FormatCatalogue<IDocumentFormat<Comparison>> Catalogue { get; } = new(
        new DocumentFormat<Comparison>("text", "a table per scenario with its verdict", [".txt"], ComparisonText.Write),
        new DocumentFormat<Comparison>("json", "the comparison as JSON (docs/schemas/compare.schema.json)", [".json"], ComparisonJson.Write),
        new DocumentFormat<Comparison>("html", "one self-contained page, a table per scenario", [".html", ".htm"], ComparisonHtml.Write));

    /// <summary>The format asked for, else the one <paramref name="output"/>'s extension names, else text.</summary>
    public static IDocumentFormat<Comparison> Resolve(string? name, string? output) => Catalogue.Resolve(name, output, Catalogue.Default);
}
