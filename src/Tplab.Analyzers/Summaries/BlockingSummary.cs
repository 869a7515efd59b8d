using System.Collections.Frozen;
using System.Text;
using Tplab.Blocking;

namespace Tplab.Analyzers.Summaries;

/// <summary>One method of an assembly that blocks: its frame (open type name, method), the kind, the blocking call at the end, and the chain from it there.</summary>
internal sealed record SummaryLine(string Type, string Method, BlockingKind Kind, string Call, IReadOnlyList<string> Chain)
{
    /// <summary>The line as a catalogue row: the consumer's rules treat a call of the method like a call of the catalogue (scan's config rows work the same way).</summary>
    public BlockingCallCatalogue.Entry Entry => new(Type, new[] { Method }.ToFrozenSet(StringComparer.Ordinal), Kind);
}

/// <summary>
/// The one definition of the summary format: an <c>[assembly: AssemblyMetadata("tplab.blocking.v1", …)]</c> whose value
/// has a line per blocking method, tab-separated: open type name, method name, <see cref="BlockingKind"/> name, the
/// blocking call, the chain's hops joined by <c>" → "</c>. Reference assemblies keep assembly attributes, so a referencing
/// project reads it from <c>Compilation.References</c> as symbols; the analyzer never reads a file.
/// </summary>
internal static class BlockingSummary
{
    /// <summary>Every summary key starts so; the version follows (<c>v1</c>).</summary>
    public const string KeyPrefix = "tplab.blocking.";

    /// <summary>The key this analyzer writes and reads.</summary>
    public const string Key = KeyPrefix + "v1";

    private const string HopSeparator = " → ";

    /// <summary>The summary's attribute value.</summary>
    public static string Write(IEnumerable<SummaryLine> lines)
    {
        var text = new StringBuilder();
        foreach (var line in lines)
        {
            text.Append(Clean(line.Type)).Append('\t').Append(Clean(line.Method)).Append('\t').Append(line.Kind.ToString()).Append('\t')
                .Append(Clean(line.Call)).Append('\t').Append(string.Join(HopSeparator, line.Chain.Select(Clean))).Append('\n');
        }
        return text.ToString();
    }

    /// <summary>The lines of a <c>v1</c> value, or null when any line is not one (then the whole summary is ignored, never half read).</summary>
    public static IReadOnlyList<SummaryLine>? Read(string? value)
    {
        if (value is null)
        {
            return null;
        }
        var lines = new List<SummaryLine>();
        foreach (var row in value.Split('\n').Where(r => r.Length > 0))
        {
            var fields = row.Split('\t');
            if (fields.Length != 5 || fields[0].Length == 0 || fields[1].Length == 0 || fields[3].Length == 0
                || !Enum.TryParse<BlockingKind>(fields[2], ignoreCase: false, out var kind) || !Enum.IsDefined(typeof(BlockingKind), kind) || fields[2] != kind.ToString())
            {
                return null;
            }
            lines.Add(new SummaryLine(fields[0], fields[1], kind, fields[3], fields[4].Split([HopSeparator], StringSplitOptions.RemoveEmptyEntries)));
        }
        return lines;
    }

    private static string Clean(string text) => text.Replace('\t', ' ').Replace('\n', ' ').Replace('\r', ' ');
}
