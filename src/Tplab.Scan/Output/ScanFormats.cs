using Tplab.Common;

namespace Tplab.Scan.Output;

/// <summary>The catalogue of <c>tplab scan --format</c> names, and which one a file's extension means.</summary>
public static class ScanFormats
{
    /// <summary>Every format, the default first.</summary>
    public static IReadOnlyList<IScanFormat> All { get; } = [new ScanTextFormat(), new ScanJsonFormat(), new SarifFormat()];

    public static IScanFormat Default => All[0];

    public static string Names => string.Join(", ", All.Select(f => f.Name));

    /// <summary>The format called <paramref name="name"/> (case-insensitive); a usage error naming the known ones otherwise.</summary>
    public static IScanFormat Find(string name) =>
        All.FirstOrDefault(f => string.Equals(f.Name, name?.Trim(), StringComparison.OrdinalIgnoreCase))
        ?? throw TplabException.Usage($"unknown format '{name}'; known: {Names}");

    /// <summary>
    /// The format for an output: the one named, else the one the file's extension means (<c>.sarif</c>, <c>.json</c>),
    /// else text.
    /// </summary>
    public static IScanFormat For(string? name, string? outputPath)
    {
        if (name is not null)
        {
            return Find(name);
        }
        // "scan.sarif.json" is SARIF too: the format whose extension appears last-but-not-least in the name wins.
        var file = Path.GetFileName(outputPath ?? "");
        return All.Where(f => file.Contains(f.Extension + ".", StringComparison.OrdinalIgnoreCase) || file.EndsWith(f.Extension, StringComparison.OrdinalIgnoreCase))
            .OrderBy(f => f.Extension == ".json" ? 1 : 0)
            .FirstOrDefault() ?? Default;
    }
}
