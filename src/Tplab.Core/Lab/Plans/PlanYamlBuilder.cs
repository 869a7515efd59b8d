using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using YamlDotNet.Core;
using YamlDotNet.Core.Events;

namespace Tplab.Lab.Plans;

/// <summary>A YAML plan into the tree, event by event: aliases expanded within the budget, never into themselves.</summary>
internal sealed class PlanYamlBuilder(PlanDocument doc, string text) : PlanTreeBuilder(doc)
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
            throw Doc.Refuse((int)e.Start.Line, $"invalid YAML ({PlanDocument.FirstSentence(e.InnerException?.Message ?? e.Message)})");
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
            o[key.Value] = Node(PlanDocument.Child(at, key.Value), depth + 1);
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
