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
    public const int MaxBytes = 1 << 20;
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
        if (Directory.Exists(path))
        {
            throw TplabException.Usage($"--plan {path}: is a folder, not a file; give a plan file (JSON or YAML, see docs/lab.md)");
        }
        byte[] bytes;
        try
        {
            using var stream = File.OpenRead(path);
            if (stream.CanSeek && stream.Length > MaxBytes)
            {
                throw TplabException.Usage($"--plan {path}: the file is larger than {MaxBytes / 1024} KiB; a plan is a short list of scenarios");
            }
            using var buffer = new MemoryStream();
            stream.CopyTo(buffer);
            bytes = buffer.ToArray();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"--plan {path}: {e.Message}");
        }
        return Parse(path, bytes);
    }

    /// <summary>Parses <paramref name="bytes"/> as the plan at <paramref name="path"/> (its extension or first character says JSON or YAML).</summary>
    public static PlanDocument Parse(string path, byte[] bytes)
    {
        if (bytes.Length > MaxBytes)
        {
            throw TplabException.Usage($"--plan {path}: the file is larger than {MaxBytes / 1024} KiB; a plan is a short list of scenarios");
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
        doc.Root = isJson ? new JsonBuilder(doc, bytes).Build() : new YamlBuilder(doc, text).Build();
        if (doc.Root is null)
        {
            throw TplabException.Usage($"--plan {path}: the file is empty");
        }
        return doc;
    }

    private static readonly System.Buffers.SearchValues<char> Printable = System.Buffers.SearchValues.Create(
        [.. Enumerable.Range(0, 0x10000).Select(i => (char)i).Where(c => c is '\t' or '\n' or '\r' || !(char.IsControl(c) || c is '\uFFFE' or '\uFFFF'))]);

    private static int LineOf(byte[] bytes, int index) => bytes.AsSpan(0, Math.Clamp(index, 0, bytes.Length)).Count((byte)'\n') + 1;

    private void Line(string at, int line) => _lines.TryAdd(at, line);

    private TplabException Refuse(int line, string message) => TplabException.Usage($"--plan {Path}: line {line}: {message}");

    private static string Child(string at, string key) => at.Length == 0 ? key : $"{at}.{key}";

    private static string Parent(string at)
    {
        var cut = Math.Max(at.LastIndexOf('.'), at.LastIndexOf('['));
        return cut <= 0 ? "" : at[..cut];
    }

    /// <summary>The bounds every builder keeps: depth and the count of values made.</summary>
    private abstract class Builder(PlanDocument doc)
    {
        private int _nodes;

        protected PlanDocument Doc { get; } = doc;

        /// <summary>The values made so far.</summary>
        protected int Made => _nodes;

        protected void Count(int line, int depth, int nodes = 1)
        {
            _nodes += nodes;
            if (_nodes > MaxNodes)
            {
                throw Doc.Refuse(line, string.Create(System.Globalization.CultureInfo.InvariantCulture, $"the plan holds more than {MaxNodes:N0} values (aliases counted as expanded); a plan is a short list of scenarios"));
            }
            if (depth > MaxDepth)
            {
                throw Doc.Refuse(line, $"nested more than {MaxDepth} levels deep");
            }
        }

        protected void Key(JsonObject o, string key, int line, string at)
        {
            if (o.ContainsKey(key))
            {
                throw Doc.Refuse(line, $"{Child(at, key)}: the key '{key}' is given twice in the same object");
            }
        }
    }

    private sealed class JsonBuilder(PlanDocument doc, byte[] bytes) : Builder(doc)
    {
        private readonly int[] _newlines = [.. bytes.Select((b, i) => (b, i)).Where(x => x.b == (byte)'\n').Select(x => x.i)];

        public JsonNode? Build()
        {
            var reader = new Utf8JsonReader(bytes, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true, MaxDepth = MaxDepth + 1 });
            try
            {
                if (!reader.Read())
                {
                    return null;
                }
                var root = Value(ref reader, "", 0);
                if (reader.Read())
                {
                    throw Doc.Refuse(LineAt(reader.TokenStartIndex), "invalid JSON (more after the end of the plan's object)");
                }
                return root;
            }
            catch (JsonException e)
            {
                throw Doc.Refuse((int)(e.LineNumber ?? 0) + 1, $"invalid JSON ({FirstSentence(e.Message)})");
            }
        }

        private int LineAt(long offset)
        {
            var i = Array.BinarySearch(_newlines, (int)offset);
            return (i < 0 ? ~i : i) + 1;
        }

        private JsonNode? Value(ref Utf8JsonReader reader, string at, int depth)
        {
            var line = LineAt(reader.TokenStartIndex);
            Count(line, depth);
            Doc.Line(at, line);
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject:
                    var o = new JsonObject();
                    while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                    {
                        var key = reader.GetString()!;
                        var keyLine = LineAt(reader.TokenStartIndex);
                        Key(o, key, keyLine, at);
                        reader.Read();
                        o[key] = Value(ref reader, Child(at, key), depth + 1);
                    }
                    return o;
                case JsonTokenType.StartArray:
                    var a = new JsonArray();
                    while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                    {
                        a.Add(Value(ref reader, $"{at}[{a.Count}]", depth + 1));
                    }
                    return a;
                case JsonTokenType.String:
                    return JsonValue.Create(reader.GetString());
                case JsonTokenType.Number:
                    return JsonNode.Parse(reader.ValueSpan);
                case JsonTokenType.True or JsonTokenType.False:
                    return JsonValue.Create(reader.GetBoolean());
                default:
                    return null;
            }
        }
    }

    private sealed class YamlBuilder(PlanDocument doc, string text) : Builder(doc)
    {
        private readonly Dictionary<string, JsonNode?> _anchors = new(StringComparer.Ordinal);
        private readonly HashSet<string> _open = new(StringComparer.Ordinal);
        private readonly Dictionary<string, int> _sizes = new(StringComparer.Ordinal);
        private IParser _parser = null!;

        public JsonNode? Build()
        {
            try
            {
                _parser = new Parser(new StringReader(text));
                _parser.Consume<StreamStart>();
                if (_parser.TryConsume<StreamEnd>(out _))
                {
                    return null;
                }
                _parser.Consume<DocumentStart>();
                var root = _parser.Accept<DocumentEnd>(out _) ? null : Node("", 0);
                _parser.Consume<DocumentEnd>();
                if (!_parser.Accept<StreamEnd>(out _))
                {
                    throw Doc.Refuse(Line(_parser.Current), "a plan is one YAML document; remove the second '---'");
                }
                return root;
            }
            catch (YamlException e)
            {
                throw Doc.Refuse((int)e.Start.Line, $"invalid YAML ({FirstSentence(e.InnerException?.Message ?? e.Message)})");
            }
            catch (Exception e) when (e is InvalidOperationException or ArgumentException or OverflowException && e.TargetSite?.DeclaringType?.Namespace?.StartsWith("YamlDotNet", StringComparison.Ordinal) == true)
            {
                // YamlDotNet's own state errors on malformed input (found by fuzzing): still the file's fault.
                throw Doc.Refuse(Line(_parser.Current), "invalid YAML (the parser could not go on from here)");
            }
        }

        private static int Line(ParsingEvent? e) => (int)(e?.Start.Line ?? 0);

        private JsonNode? Node(string at, int depth)
        {
            var e = _parser.Current ?? throw new YamlException("unexpected end of the file");
            var line = Line(e);
            Doc.Line(at, line);
            if (e is AnchorAlias alias)
            {
                _parser.MoveNext();
                var name = alias.Value.Value;
                if (_open.Contains(name))
                {
                    throw Doc.Refuse(line, $"{Display(at)}the alias *{name} refers to a node that contains it");
                }
                if (!_anchors.TryGetValue(name, out var target))
                {
                    throw Doc.Refuse(line, $"{Display(at)}the alias *{name} names no anchor before it");
                }
                Count(line, depth, _sizes[name]);
                return target?.DeepClone();
            }
            var anchor = e is NodeEvent { Anchor.IsEmpty: false } n ? n.Anchor.Value : null;
            if (anchor is not null)
            {
                _open.Add(anchor);
            }
            var before = Made;
            Count(line, depth);
            JsonNode? node = e switch
            {
                MappingStart => Mapping(at, depth),
                SequenceStart => Sequence(at, depth),
                Scalar s => ScalarValue(s),
                _ => throw Doc.Refuse(line, "unexpected YAML event"),
            };
            if (anchor is not null)
            {
                _open.Remove(anchor);
                _anchors[anchor] = node;
                _sizes[anchor] = Made - before;
            }
            return node;
        }

        private JsonObject Mapping(string at, int depth)
        {
            _parser.MoveNext();
            var o = new JsonObject();
            while (!_parser.TryConsume<MappingEnd>(out _))
            {
                var keyEvent = _parser.Current;
                if (keyEvent is not Scalar key)
                {
                    throw Doc.Refuse(Line(keyEvent), $"{Display(at)}a key must be a plain word (a list, an object or an alias cannot be a key)");
                }
                _parser.MoveNext();
                Key(o, key.Value, Line(key), at);
                o[key.Value] = Node(Child(at, key.Value), depth + 1);
            }
            return o;
        }

        private JsonArray Sequence(string at, int depth)
        {
            _parser.MoveNext();
            var a = new JsonArray();
            while (!_parser.TryConsume<SequenceEnd>(out _))
            {
                a.Add(Node($"{at}[{a.Count}]", depth + 1));
            }
            return a;
        }

        // YAML scalars stay strings; the plan reader converts them where it expects numbers, naming the field if it can't.
        private JsonValue? ScalarValue(Scalar s)
        {
            _parser.MoveNext();
            return s.Style == ScalarStyle.Plain && s.Value is "" or "~" or "null" or "Null" or "NULL" ? null : JsonValue.Create(s.Value);
        }

        private static string Display(string at) => at.Length == 0 ? "" : at + ": ";
    }

    private static string FirstSentence(string message)
    {
        var line = message.ReplaceLineEndings(" ");
        var dot = line.IndexOf(". ", StringComparison.Ordinal);
        return dot > 0 ? line[..dot] : line.TrimEnd('.');
    }
}
