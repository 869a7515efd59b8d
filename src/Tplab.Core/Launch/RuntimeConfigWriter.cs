using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;

namespace Tplab.Launch;

/// <summary>
/// Writes a copy of the target's runtimeconfig.json with the knobs added to <c>configProperties</c> —
/// the same file a user gets from runtimeconfig.template.json or an MSBuild property such as ThreadPoolMinThreads.
/// </summary>
public static class RuntimeConfigWriter
{
    /// <summary>
    /// Writes the config and returns its path. The file is named by a hash of its content in a shared temporary
    /// folder, so the same settings reuse one file and nothing is left per run, even when tplab is killed.
    /// </summary>
    public static string Write(string baseConfigPath, IEnumerable<KeyValuePair<string, string>> knobs)
    {
        JsonObject root, options;
        try
        {
            root = JsonNode.Parse(InputFile.ReadText(baseConfigPath, "the app's runtimeconfig.json", InputLimit.RuntimeConfig)) as JsonObject ?? throw new JsonException("not an object");
            options = root["runtimeOptions"] as JsonObject ?? throw new JsonException("no runtimeOptions object");
        }
        catch (JsonException e)
        {
            throw TplabException.Usage($"the app's runtimeconfig.json {baseConfigPath} cannot be read: {e.Message.ReplaceLineEndings(" ")}");
        }
        if (options["configProperties"] is not JsonObject properties)
        {
            properties = [];
            options["configProperties"] = properties;
        }
        foreach (var (name, value) in knobs)
        {
            properties[name] = ToJson(value);
        }
        var text = root.ToJsonString(new JsonSerializerOptions { WriteIndented = true });
        var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..16];
        var folder = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), "tplab-runtimeconfig")).FullName;
        var app = Path.GetFileName(baseConfigPath).Replace(".runtimeconfig.json", "", StringComparison.OrdinalIgnoreCase);
        var path = Path.Combine(folder, $"{app}.{hash}.runtimeconfig.json");
        if (!File.Exists(path))
        {
            AtomicFile.WriteAllText(path, text);
        }
        return path;
    }

    // runtimeconfig values are typed: numbers and booleans must not be quoted for the runtime to read them as such.
    private static JsonNode ToJson(string value) =>
        bool.TryParse(value, out var b) ? JsonValue.Create(b)
        : long.TryParse(value, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var n) ? JsonValue.Create(n)
        : JsonValue.Create(value);
}
