using Tplab.Common.Output;

namespace Tplab.Scan.Output;

/// <summary>The catalogue of <c>tplab scan --format</c>: text (the default), json, sarif.</summary>
public static class ScanFormats
{
    public static FormatCatalogue<IScanFormat> Catalogue { get; } = new(new ScanTextFormat(), new ScanJsonFormat(), new SarifFormat());

    public static string Names => Catalogue.Names;

    /// <summary>The format called <paramref name="name"/> (any case); a usage error naming the known ones otherwise.</summary>
    public static IScanFormat Find(string name) => Catalogue.Find(name);

    /// <summary>The format named, else the one the output file's extension means (<c>.json</c>, <c>.sarif</c>), else text.</summary>
    public static IScanFormat For(string? name, string? outputPath) => Catalogue.Resolve(name, outputPath, Catalogue.Default);
}
