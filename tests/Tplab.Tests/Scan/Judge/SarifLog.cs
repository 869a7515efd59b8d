using System.Text.Json;

namespace Tplab.Tests.Scan.Judge;

/// <summary>A place in a source file as a SARIF log names it: the path (absolute when the log lets us resolve it,
/// otherwise as the log wrote it, relative) and the 1-based lines the region covers.</summary>
internal sealed record SourceSpot(string Path, int StartLine, int EndLine);

/// <summary>One result of a SARIF log, reduced to what the judge needs.</summary>
/// <param name="Level">error, warning, note or none (SARIF's default is warning).</param>
/// <param name="Flows">Each thread flow of each code flow: the places in order (tplab's chain from root to blocking call).</param>
internal sealed record SarifResult(string Tool, string RuleId, string Level, SourceSpot? Spot, string Message, IReadOnlyList<IReadOnlyList<SourceSpot>> Flows);

/// <summary>
/// Reads the results of a SARIF 2.1.0 log from any tool: the C# compiler's ErrorLog (absolute file:// URIs), tplab
/// (URIs relative to a uriBaseId such as SRCROOT declared in originalUriBaseIds), or a tool that writes plain relative
/// paths or "%SRCROOT%/..." text. Results a suppression silenced are left out: the user does not see them.
/// </summary>
internal static class SarifLog
{
    public static IReadOnlyList<SarifResult> Read(string path) => Parse(File.ReadAllText(path));

    public static IReadOnlyList<SarifResult> Parse(string json)
    {
        using var document = JsonDocument.Parse(json, new JsonDocumentOptions { AllowTrailingCommas = true });
        var results = new List<SarifResult>();
        if (!document.RootElement.TryGetProperty("runs", out var runs))
        {
            throw new InvalidDataException("not a SARIF log: no \"runs\"");
        }
        foreach (var run in runs.EnumerateArray())
        {
            var tool = run.TryGetProperty("tool", out var t) && t.TryGetProperty("driver", out var d) && d.TryGetProperty("name", out var n) ? n.GetString() ?? "" : "";
            var bases = run.TryGetProperty("originalUriBaseIds", out var b) ? b : default;
            var artifacts = run.TryGetProperty("artifacts", out var a) ? a : default;
            if (!run.TryGetProperty("results", out var runResults) || runResults.ValueKind != JsonValueKind.Array)
            {
                continue;
            }
            foreach (var result in runResults.EnumerateArray())
            {
                if (result.TryGetProperty("suppressions", out var s) && s.ValueKind == JsonValueKind.Array && s.GetArrayLength() > 0)
                {
                    continue;
                }
                var spot = result.TryGetProperty("locations", out var locations) && locations.ValueKind == JsonValueKind.Array && locations.GetArrayLength() > 0
                    ? Spot(locations[0], bases, artifacts)
                    : null;
                results.Add(new SarifResult(
                    tool,
                    Text(result, "ruleId") ?? "",
                    Text(result, "level") ?? "warning",
                    spot,
                    result.TryGetProperty("message", out var m) ? Text(m, "text") ?? "" : "",
                    Flows(result, bases, artifacts)));
            }
        }
        return results;
    }

    private static List<IReadOnlyList<SourceSpot>> Flows(JsonElement result, JsonElement bases, JsonElement artifacts)
    {
        var flows = new List<IReadOnlyList<SourceSpot>>();
        foreach (var codeFlow in Items(result, "codeFlows"))
        {
            foreach (var threadFlow in Items(codeFlow, "threadFlows"))
            {
                var spots = Items(threadFlow, "locations")
                    .Select(step => step.TryGetProperty("location", out var location) ? Spot(location, bases, artifacts) : null)
                    .OfType<SourceSpot>()
                    .ToList();
                flows.Add(spots);
            }
        }
        return flows;
    }

    private static SourceSpot? Spot(JsonElement location, JsonElement bases, JsonElement artifacts)
    {
        if (!location.TryGetProperty("physicalLocation", out var physical) || !physical.TryGetProperty("artifactLocation", out var artifact))
        {
            return null;
        }
        var path = ArtifactPath(artifact, bases, artifacts, depth: 0);
        if (path is null)
        {
            return null;
        }
        var start = 0;
        var end = 0;
        if (physical.TryGetProperty("region", out var region))
        {
            start = Number(region, "startLine");
            end = Math.Max(start, Number(region, "endLine"));
        }
        return new SourceSpot(path, start, end);
    }

    /// <summary>The artifact's path: absolute when its URI (or its base's) is absolute, otherwise relative as written.</summary>
    internal static string? ArtifactPath(JsonElement artifact, JsonElement bases, JsonElement artifacts, int depth)
    {
        var uri = Text(artifact, "uri");
        if (uri is null && artifact.TryGetProperty("index", out var index) && artifacts.ValueKind == JsonValueKind.Array
            && index.GetInt32() is var i && i >= 0 && i < artifacts.GetArrayLength() && artifacts[i].TryGetProperty("location", out var indexed))
        {
            return depth < 4 ? ArtifactPath(indexed, bases, artifacts, depth + 1) : null;
        }
        if (uri is null)
        {
            return null;
        }
        if (Absolute(uri) is { } absolute)
        {
            return absolute;
        }
        var relative = Relative(uri);
        // A base id the log declares: resolve against it (it may itself be relative to another base).
        var baseId = Text(artifact, "uriBaseId");
        if (baseId is not null && bases.ValueKind == JsonValueKind.Object && bases.TryGetProperty(baseId, out var baseLocation) && depth < 4)
        {
            var basePath = ArtifactPath(baseLocation, bases, artifacts, depth + 1);
            if (basePath is not null)
            {
                return Combine(basePath, relative);
            }
        }
        return relative;
    }

    private static string? Absolute(string uri)
    {
        if (uri.StartsWith("file:", StringComparison.OrdinalIgnoreCase) && Uri.TryCreate(uri, UriKind.Absolute, out var file))
        {
            return Normalise(file.LocalPath);
        }
        return uri.StartsWith('/') ? Normalise(Uri.UnescapeDataString(uri)) : null;
    }

    /// <summary>A relative reference as a path: escapes decoded, "%SRCROOT%/" style prefixes and "./" dropped.</summary>
    private static string Relative(string uri)
    {
        var text = uri.Replace('\\', '/');
        if (text.StartsWith('%') && text.IndexOf('%', 1) is var close && close > 0)
        {
            text = text[(close + 1)..].TrimStart('/');
        }
        return Normalise(Uri.UnescapeDataString(text));
    }

    private static string Combine(string basePath, string relative) =>
        relative.Length == 0 ? basePath : Normalise(basePath.TrimEnd('/') + "/" + relative);

    private static string Normalise(string path)
    {
        var parts = new List<string>();
        foreach (var part in path.Replace('\\', '/').Split('/'))
        {
            if (part == "." || (part.Length == 0 && parts.Count > 0))
            {
                continue;
            }
            if (part == ".." && parts.Count > 0 && parts[^1] is not ".." and not "")
            {
                parts.RemoveAt(parts.Count - 1);
                continue;
            }
            parts.Add(part);
        }
        return string.Join('/', parts);
    }

    private static IEnumerable<JsonElement> Items(JsonElement json, string property) =>
        json.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.Array ? value.EnumerateArray() : [];

    private static int Number(JsonElement json, string property) =>
        json.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.Number ? value.GetInt32() : 0;

    private static string? Text(JsonElement json, string property) =>
        json.ValueKind == JsonValueKind.Object && json.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
}
