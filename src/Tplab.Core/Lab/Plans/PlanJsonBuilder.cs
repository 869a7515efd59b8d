using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;

namespace Tplab.Lab.Plans;

/// <summary>A JSON plan into the tree, through Utf8JsonReader: duplicate keys refused, each value's line kept.</summary>
internal sealed class PlanJsonBuilder(PlanDocument doc, byte[] bytes) : PlanTreeBuilder(doc)
{
    private readonly int[] _newlines = [.. bytes.Select((b, i) => (b, i)).Where(x => x.b == (byte)'\n').Select(x => x.i)];

    public JsonNode? Build()
    {
        var reader = new Utf8JsonReader(bytes, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true, MaxDepth = PlanDocument.MaxDepth + 1 });
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
            throw Doc.Refuse((int)(e.LineNumber ?? 0) + 1, $"invalid JSON ({PlanDocument.FirstSentence(e.Message)})");
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
                    o[key] = Value(ref reader, PlanDocument.Child(at, key), depth + 1);
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
