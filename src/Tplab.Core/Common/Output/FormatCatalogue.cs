using System.Globalization;

namespace Tplab.Common.Output;

/// <summary>
/// The formats of one command, each listed once, the default first: found by <c>--format</c> name (a usage error in
/// one line naming the known ones otherwise) or by the extension of the <c>--output</c> file.
/// </summary>
public sealed class FormatCatalogue<TFormat>
    where TFormat : class, IOutputFormat
{
    /// <summary>A catalogue of <paramref name="all"/>; the first is the default.</summary>
    public FormatCatalogue(params IReadOnlyList<TFormat> all)
    {
        ArgumentNullException.ThrowIfNull(all);
        ArgumentOutOfRangeException.ThrowIfZero(all.Count);
        All = all;
    }

    /// <summary>Every format, the default first.</summary>
    public IReadOnlyList<TFormat> All { get; }

    /// <summary>The format used when none is asked for.</summary>
    public TFormat Default => All[0];

    /// <summary>The names, comma-separated, for messages and help.</summary>
    public string Names => string.Join(", ", All.Select(f => f.Name));

    /// <summary>The <c>--format</c> help: each name with what it writes, the default first and said so.</summary>
    public string Help => string.Join("; ", All.Select((f, i) => $"{f.Name}{(i == 0 ? " (default)" : "")}: {f.Description}"));

    /// <summary>The format called <paramref name="name"/> (any case); a usage error naming the known ones otherwise.</summary>
    public TFormat Find(string? name) =>
        All.FirstOrDefault(f => string.Equals(f.Name, name?.Trim(), StringComparison.OrdinalIgnoreCase))
        ?? throw TplabException.Usage($"--format must be one of {Names}, got '{name}'");

    /// <summary>The format whose extension <paramref name="path"/> has; null when none has it.</summary>
    public TFormat? ForPath(string? path)
    {
        var extension = Path.GetExtension(path ?? "").ToLower(CultureInfo.InvariantCulture);
        return extension.Length == 0 ? null : All.FirstOrDefault(f => f.Extensions.Contains(extension, StringComparer.Ordinal));
    }

    /// <summary>
    /// The format of one output: <paramref name="name"/> when given, else the one <paramref name="path"/>'s extension
    /// names, else <paramref name="fallback"/>; with no fallback, an output whose extension names no format is a usage error.
    /// </summary>
    public TFormat Resolve(string? name, string? path, TFormat? fallback)
    {
        if (!string.IsNullOrWhiteSpace(name))
        {
            return Find(name);
        }
        if (path is not null && ForPath(path) is { } byExtension)
        {
            return byExtension;
        }
        return fallback ?? throw TplabException.Usage(path is null
            ? $"give --format (one of {Names})"
            : $"cannot tell the format of --output {path} from its extension; give --format for it (one of {Names})");
    }
}
