using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using YamlDotNet.Core;
using YamlDotNet.RepresentationModel;

namespace Tplab.Lab.Plans;

/// <summary>Reads a plan file (JSON or YAML) into one JSON tree; a syntax error names the line.</summary>
internal static class PlanDocument
{
    public static JsonNode Read(string path)
    {
        if (Directory.Exists(path))
        {
            throw TplabException.Usage($"--plan {path}: is a folder; give a plan file (JSON or YAML, see docs/lab.md)");
        }
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"--plan {path}: {e.Message}");
        }
        var isJson = path.EndsWith(".json", StringComparison.OrdinalIgnoreCase) || text.TrimStart().StartsWith('{');
        var node = isJson ? ParseJson(path, text) : ParseYaml(path, text);
        return node ?? throw TplabException.Usage($"--plan {path}: the file is empty");
    }

    private static JsonNode? ParseJson(string path, string text)
    {
        try
        {
            return JsonNode.Parse(text, documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
        }
        catch (JsonException e)
        {
            throw TplabException.Usage($"--plan {path}: line {(e.LineNumber ?? 0) + 1}: invalid JSON ({FirstSentence(e.Message)})");
        }
    }

    private static JsonNode? ParseYaml(string path, string text)
    {
        var stream = new YamlStream();
        try
        {
            stream.Load(new StringReader(text));
        }
        catch (YamlException e)
        {
            throw TplabException.Usage($"--plan {path}: line {e.Start.Line}: invalid YAML ({FirstSentence(e.InnerException?.Message ?? e.Message)})");
        }
        return stream.Documents.Count == 0 ? null : ToJson(stream.Documents[0].RootNode);
    }

    // YAML scalars stay strings here; the plan reader converts them where it expects numbers, naming the field if it can't.
    private static JsonNode? ToJson(YamlNode node) => node switch
    {
        YamlMappingNode map => new JsonObject(map.Children.Select(kv =>
            KeyValuePair.Create(((YamlScalarNode)kv.Key).Value ?? "", ToJson(kv.Value)))),
        YamlSequenceNode seq => new JsonArray([.. seq.Children.Select(ToJson)]),
        YamlScalarNode { Value: null or "~" or "null" } s when s.Style == ScalarStyle.Plain => null,
        YamlScalarNode s => JsonValue.Create(s.Value),
        _ => null,
    };

    private static string FirstSentence(string message)
    {
        var line = message.ReplaceLineEndings(" ");
        var dot = line.IndexOf(". ", StringComparison.Ordinal);
        return dot > 0 ? line[..dot] : line.TrimEnd('.');
    }
}
