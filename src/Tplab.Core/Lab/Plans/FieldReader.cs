using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using Tplab.Lab.Experiments;
using static Tplab.Lab.Plans.PlanReader;

namespace Tplab.Lab.Plans;

/// <summary>Reads typed fields of a plan, accepting YAML's strings for numbers, and names the field in every error.</summary>
internal sealed class FieldReader(PlanDocument document)
{
    public string Path => document.Path;

    /// <summary>A usage error about <paramref name="field"/>, naming its line in the plan: one line, exit 2.</summary>
    public TplabException Error(string field, string message)
    {
        var line = document.LineOf(field);
        var where = line > 0 ? $"line {line.ToString(CultureInfo.InvariantCulture)}: " : "";
        return TplabException.Usage(field.Length == 0 ? $"--plan {Path}: {where}{message}" : $"--plan {Path}: {where}{field}: {message}");
    }

    public void OnlyKnown(JsonObject o, string at, params string[] known)
    {
        var unknown = o.Select(kv => kv.Key).FirstOrDefault(k => !known.Contains(k, StringComparer.Ordinal));
        if (unknown is not null)
        {
            throw Error(Join(at, unknown), $"unknown field (expected one of: {string.Join(", ", known)})");
        }
    }

    public string? String(JsonObject o, string at, string field) => o[field] switch
    {
        null => null,
        JsonValue v when v.TryGetValue<string>(out var s) => s,
        _ => throw Error(Join(at, field), "must be a string"),
    };

    /// <summary>true or false (YAML's plain words arrive as strings); null when absent.</summary>
    public bool? Bool(JsonObject o, string at, string field) => o[field] switch
    {
        null => null,
        JsonValue v when v.GetValueKind() is JsonValueKind.True or JsonValueKind.False => v.GetValue<bool>(),
        JsonValue v when v.TryGetValue<string>(out var s) && s is "true" or "false" => s == "true",
        var other => throw Error(Join(at, field), $"must be true or false, got {other.ToJsonString()}"),
    };

    /// <summary>
    /// A plan's name or a scenario's id: it becomes a folder or file name under the results folder, so it is one
    /// path segment of letters, digits, '.', '-' and '_' (at most 64, not starting with '.'); null when absent.
    /// </summary>
    public string? Name(JsonObject o, string at, string field) => String(o, at, field) is { } s ? CheckName(s, Join(at, field)) : null;

    public string CheckName(string name, string at, string origin = "") =>
        FileNames.IsSafe(name) ? name : throw Error(at, $"{FileNames.Rule} (it names files under the results folder), got '{name}'{origin}");

    public string Variant(JsonObject o, string at) =>
        Variant(o["variant"] ?? throw Error(Join(at, "variant"), $"is required (one of: {string.Join(", ", Variants.All)})"), Join(at, "variant"));

    public string Variant(JsonNode? node, string at)
    {
        var text = node is JsonValue v && v.TryGetValue<string>(out var s) ? s.TrimStart('/') : null;
        return text is not null && Variants.All.Contains(text) ? text
            : throw Error(at, $"unknown variant '{node?.ToJsonString()}' (one of: {string.Join(", ", Variants.All)})");
    }

    public int? Int(JsonObject o, string at, string field, int min, int max) => IntValue(o[field], Join(at, field), min, max);

    public int? IntValue(JsonNode? node, string at, int min, int max)
    {
        var d = Number(node, at);
        if (d is null)
        {
            return null;
        }
        if (!double.IsFinite(d.Value) || d != Math.Floor(d.Value) || d < min || d > max)
        {
            throw Error(at, $"must be a whole number from {min} to {max}, got {d.Value.ToString(CultureInfo.InvariantCulture)}");
        }
        return (int)d.Value;
    }

    public double? Double(JsonObject o, string at, string field, double min, double max)
    {
        var d = Number(o[field], Join(at, field));
        return d is null ? null
            : !(d >= min && d <= max) ? throw Error(Join(at, field), $"must be from {min.ToString(CultureInfo.InvariantCulture)} to {max.ToString(CultureInfo.InvariantCulture)}, got {d.Value.ToString(CultureInfo.InvariantCulture)}")
            : d;
    }

    /// <summary>A duration of at least <paramref name="min"/> (a bare number is seconds); null when absent.</summary>
    public TimeSpan? Duration(JsonObject o, string at, string field, TimeSpan min, TimeSpan? max = null)
    {
        var node = o[field];
        if (node is null)
        {
            return null;
        }
        var text = node is JsonValue v && v.TryGetValue<string>(out var s) ? s : node.ToJsonString();
        TimeSpan value;
        try
        {
            value = DurationText.Parse(text, "");
        }
        catch (TplabException e)
        {
            throw Error(Join(at, field), e.Message.Trim());
        }
        var most = max ?? TimeSpan.FromDays(1);
        return value >= min && value <= most ? value
            : throw Error(Join(at, field), $"must be from {DurationText.Format(min)} to {DurationText.Format(most)}, got '{text}'");
    }

    /// <summary>Think time as <c>MIN..MAX</c> (e.g. <c>0..200ms</c>), as siege's -d and tplab load's --think take it.</summary>
    public (TimeSpan Min, TimeSpan Max) Think(JsonObject o, string at)
    {
        var text = String(o, at, "think");
        if (text is null)
        {
            return (TimeSpan.Zero, TimeSpan.Zero);
        }
        try
        {
            var think = DurationText.ParseRange(text, "");
            return think.Max <= TimeSpan.FromHours(1) ? (think.Min, think.Max) : throw Error(Join(at, "think"), $"must be at most 1h, got '{text}'");
        }
        catch (TplabException e) when (!e.Message.StartsWith("--plan", StringComparison.Ordinal))
        {
            throw Error(Join(at, "think"), e.Message.Trim());
        }
    }

    public JsonArray List(JsonObject o, string at, string field) =>
        o[field] as JsonArray is { Count: > 0 } a ? a : throw Error(Join(at, field), "is required (a non-empty list)");

    public IReadOnlyList<KeyValuePair<string, string>> Knobs(JsonObject o, string at) => Map(o, at, "knobs");

    /// <summary>An object of NAME: VALUE (knobs, environment, headers); numbers and booleans are kept as written.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Map(JsonObject o, string at, string field)
    {
        if (o[field] is null)
        {
            return [];
        }
        var map = o[field] as JsonObject ?? throw Error(Join(at, field), "must be an object of NAME: VALUE");
        return [.. map.Select(kv => KeyValuePair.Create(kv.Key, kv.Value switch
        {
            JsonValue v when v.TryGetValue<string>(out var s) => s,
            JsonValue v => v.ToJsonString(),
            _ => throw Error(Join(at, $"{field}.{kv.Key}"), "must be a number, true/false or a string"),
        }))];
    }

    /// <summary>A file or folder named in the plan, relative to the plan's folder.</summary>
    public string RelativeToPlan(string file) => System.IO.Path.GetFullPath(file, System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(Path))!);

    private double? Number(JsonNode? node, string at) => node switch
    {
        null => null,
        JsonValue v when v.GetValueKind() == JsonValueKind.Number => v.GetValue<double>(),
        JsonValue v when v.TryGetValue<string>(out var s) && double.TryParse(s, NumberStyles.Float, CultureInfo.InvariantCulture, out var d) => d,
        _ => throw Error(at, $"must be a number, got {node.ToJsonString()}"),
    };
}
