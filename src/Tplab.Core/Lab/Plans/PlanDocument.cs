using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using YamlDotNet.Core;
using YamlDotNet.Core.Events;

namespace Tplab.Lab.Plans;

/// <summary>
/// A plan file read into one JSON tree, bounded whatever the file holds: at most <see cref="MaxBytes"/> bytes,
/// <see cref="MaxDepth"/> levels and <see cref="MaxNodes"/> values (YAML aliases counted as expanded, so a
/// "billion laughs" stops at once), no alias to a node that contains it, no duplicate key (in JSON as in YAML), only
/// scalar keys. Every value's line is kept by its field path (<c>scenarios[0].load.rate</c>), so an error about a field
/// names its line as well.
/// </summary>
internal sealed class PlanDocument
{
    public static int MaxBytes => (int)InputLimit.Plan.Bytes;
    public const int MaxDepth = 32;
    public const int MaxNodes = 20_000;

    private readonly Dictionary<string, int> _lines = new(StringComparer.Ordinal);

    private PlanDocument(string path) => Path = path;

    public string Path { get; }

    public JsonNode? Root { get; private set; }

    /// <summary>The line of <paramref name="field"/>, or of the nearest enclosing field that has one; 0 when none.</summary>
    public int LineOf(string field)
    {
        for (var at = field; ; at = Parent(at))
        {
            if (_lines.TryGetValue(at, out var line))
            {
                return line;
            }
            if (at.Length == 0)
            {
                return 0;
            }
        }
    }

    public static PlanDocument Read(string path)
    {
        if (path.Length == 0)
        {
            throw TplabException.Usage("--plan: the path is empty; give a plan file (JSON or YAML, see docs/lab.md)");
        }
        var bytes = InputFile.ReadBytes(path, "--plan", InputLimit.Plan);
        return Parse(path, bytes);
    }

    /// <summary>Parses <paramref name="bytes"/> as the plan at <paramref name="path"/> (its extension or first character says JSON or YAML).</summary>
    public static PlanDocument Parse(string path, byte[] bytes)
    {
        if (bytes.Length > MaxBytes)
        {
            throw InputLimit.Plan.TooLarge("--plan", path);
        }
        var doc = new PlanDocument(path);
        string text;
        try
        {
            text = new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(bytes).TrimStart('\uFEFF');
        }
        catch (DecoderFallbackException e)
        {
            throw doc.Refuse(LineOf(bytes, e.Index), "the file is not UTF-8 text");
        }
        // Neither YAML nor JSON allows control characters outside strings' escapes; YamlDotNet fails on some of them
        // with an internal error, so they are refused here, by line.
        var control = text.AsSpan().IndexOfAnyExcept(Printable);
        if (control >= 0)
        {
            throw doc.Refuse(text.AsSpan(0, control).Count('\n') + 1,
                $"holds the control character U+{(int)text[control]:X4}; a plan is text (write it as an escape in a double-quoted string)");
        }
        var isJson = path.EndsWith(".json", StringComparison.OrdinalIgnoreCase) || text.TrimStart().StartsWith('{');
        doc.Root = isJson ? new PlanJsonBuilder(doc, bytes).Build() : new PlanYamlBuilder(doc, text).Build();
        if (doc.Root is null)
        {
            throw TplabException.Usage($"--plan {path}: the file is empty");
        }
        return doc;
    }

    private static readonly System.Buffers.SearchValues<char> Printable = System.Buffers.SearchValues.Create(
        [.. Enumerable.Range(0, 0x10000).Select(i => (char)i).Where(c => c is '\t' or '\n' or '\r' || !(char.IsControl(c) || c is '\uFFFE' or '\uFFFF'))]);

    private static int LineOf(byte[] bytes, int index) => bytes.AsSpan(0, Math.Clamp(index, 0, bytes.Length)).Count((byte)'\n') + 1;

    internal void Line(string at, int line) => _lines.TryAdd(at, line);

    internal TplabException Refuse(int line, string message) => TplabException.Usage($"--plan {Path}: line {line}: {message}");

    internal static string Child(string at, string key) => at.Length == 0 ? key : $"{at}.{key}";

    private static string Parent(string at)
    {
        var cut = Math.Max(at.LastIndexOf('.'), at.LastIndexOf('['));
        return cut <= 0 ? "" : at[..cut];
    }

    internal static string FirstSentence(string message)
    {
        var line = message.ReplaceLineEndings(" ");
        var dot = line.IndexOf(". ", StringComparison.Ordinal);
        return dot > 0 ? line[..dot] : line.TrimEnd('.');
    }
}
