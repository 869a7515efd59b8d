using System.Text.Json;
using System.Text.Json.Nodes;
using YamlDotNet.Core;
using YamlDotNet.RepresentationModel;

namespace Tplab.Lab.Plans;

/// <summary>Saves a plan's records (<see cref="PlanFile"/>, as the serializer's tree) as YAML, which <see cref="PlanYamlBuilder"/> reads back into the same tree.</summary>
internal static class PlanYaml
{
    public static void Write(JsonNode root, TextWriter writer) =>
        new YamlStream(new YamlDocument(ToYaml(root))).Save(writer, assignAnchors: false);

    private static YamlNode ToYaml(JsonNode? node) => node switch
    {
        JsonObject o => new YamlMappingNode(o.Select(kv => new KeyValuePair<YamlNode, YamlNode>(Text(kv.Key), ToYaml(kv.Value)))),
        JsonArray a => new YamlSequenceNode(a.Select(ToYaml)),
        JsonValue v when v.GetValueKind() == JsonValueKind.String => Text(v.GetValue<string>()),
        JsonValue v => new YamlScalarNode(v.ToJsonString()),
        _ => new YamlScalarNode("null"),
    };

    // The reader takes every scalar as text, except a plain empty, null or ~: those need quotes to stay text. Text with
    // a control character is double-quoted, so it is written as an escape and read back the same.
    private static YamlScalarNode Text(string value) =>
        value is "" or "~" or "null" or "Null" or "NULL" || value.Any(char.IsControl) || value != value.Trim()
            ? new YamlScalarNode(value) { Style = ScalarStyle.DoubleQuoted }
            : new YamlScalarNode(value);
}
