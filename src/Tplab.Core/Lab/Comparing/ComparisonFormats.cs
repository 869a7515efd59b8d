using Tplab.Common.Output;

namespace Tplab.Lab.Comparing;

/// <summary>An output format of <c>tplab compare</c>.</summary>
public interface IComparisonFormat : IOutputFormat
{
    /// <summary>Writes <paramref name="comparison"/>.</summary>
    void Write(Comparison comparison, TextWriter writer);
}

/// <summary>The catalogue of <c>tplab compare --format</c>: text (the default), json, html.</summary>
public static class ComparisonFormats
{
    /// <summary>Every format, text first.</summary>
    public static FormatCatalogue<IComparisonFormat> Catalogue { get; } = new(
        new Format("text", "a table per scenario with its verdict", [".txt"], ComparisonText.Write),
        new Format("json", "the comparison as JSON (docs/schemas/compare.schema.json)", [".json"], ComparisonJson.Write),
        new Format("html", "one self-contained page, a table per scenario", [".html", ".htm"], ComparisonHtml.Write));

    /// <summary>The format asked for, else the one <paramref name="output"/>'s extension names, else text.</summary>
    public static IComparisonFormat Resolve(string? name, string? output) => Catalogue.Resolve(name, output, Catalogue.Default);

    private sealed record Format(string Name, string Description, IReadOnlyList<string> Extensions, Action<Comparison, TextWriter> Writer) : IComparisonFormat
    {
        public void Write(Comparison comparison, TextWriter writer) => Writer(comparison, writer);
    }
}
