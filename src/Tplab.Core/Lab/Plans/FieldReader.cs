using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using Tplab.Lab.Experiments;
using static Tplab.Lab.Plans.PlanReader;

namespace Tplab.Lab.Plans;

/// <summary>Checks the fields of a plan's records (<see cref="PlanFile"/>) into typed values, naming the field and its line in every error.</summary>
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

    /// <summary>
    /// Why the plan's tree did not read as <see cref="PlanFile"/>, in the plan's words: the field, its line, what it
    /// must be and what it is (System.Text.Json's own messages name CLR types; here they become "must be a list").
    /// </summary>
    public TplabException Error(JsonException e)
    {
        var field = FieldOf(e.Path) + (e as PlanValueException)?.Relative;
        if ((e as PlanValueException)?.Detail is { } detail)
        {
            return Error(field, detail);
        }
        var given = Node(field) is { } node ? node.ToJsonString() : "null";
        var expected = TypeAt(field) switch
        {
            var t when t == typeof(string) => "must be a string",
            { IsGenericType: true } => "must be a list",
            _ => "must be an object",
        };
        return Error(field, $"{expected}, got {given}");
    }

    public void OnlyKnown(IEnumerable<string>? unknown, string at, IEnumerable<string> known)
    {
        if (unknown?.FirstOrDefault() is { } name)
        {
            throw Error(Join(at, name), $"unknown field (expected one of: {string.Join(", ", known)})");
        }
    }

    /// <summary>
    /// A plan's name or a scenario's id: it becomes a folder or file name under the results folder, so it is one
    /// path segment of letters, digits, '.', '-' and '_' (at most 64, not starting with '.'); null when absent.
    /// </summary>
    public string? Name(string? name, string field) => name is null ? null : CheckName(name, field);

    public string CheckName(string name, string at, string origin = "") =>
        FileNames.IsSafe(name) ? name : throw Error(at, $"{FileNames.Rule} (it names files under the results folder), got '{name}'{origin}");

    public string Variant(string? variant, string at)
    {
        var text = variant?.TrimStart('/');
        return text is not null && Variants.All.Contains(text) ? text
            : variant is null ? throw Error(at, $"is required (one of: {string.Join(", ", Variants.All)})")
            : throw Error(at, $"unknown variant '{variant}' (one of: {string.Join(", ", Variants.All)})");
    }

    public int? Int(double? d, string at, int min, int max)
    {
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

    public double? Double(double? d, string at, double min, double max) =>
        d is null ? null
            : !(d >= min && d <= max) ? throw Error(at, $"must be from {min.ToString(CultureInfo.InvariantCulture)} to {max.ToString(CultureInfo.InvariantCulture)}, got {d.Value.ToString(CultureInfo.InvariantCulture)}")
            : d;

    /// <summary>A duration of at least <paramref name="min"/> (a bare number is seconds); null when absent.</summary>
    public TimeSpan? Duration(string? text, string at, TimeSpan min, TimeSpan? max = null)
    {
        if (text is null)
        {
            return null;
        }
        TimeSpan value;
        try
        {
            value = DurationText.Parse(text, "");
        }
        catch (TplabException e)
        {
            throw Error(at, e.Message.Trim());
        }
        var most = max ?? TimeSpan.FromDays(1);
        return value >= min && value <= most ? value
            : throw Error(at, $"must be from {DurationText.Format(min)} to {DurationText.Format(most)}, got '{text}'");
    }

    /// <summary>Think time as <c>MIN..MAX</c> (e.g. <c>0..200ms</c>), as siege's -d and tplab load's --think take it.</summary>
    public (TimeSpan Min, TimeSpan Max) Think(string? text, string at)
    {
        if (text is null)
        {
            return (TimeSpan.Zero, TimeSpan.Zero);
        }
        try
        {
            var think = DurationText.ParseRange(text, "");
            return think.Max <= TimeSpan.FromHours(1) ? (think.Min, think.Max) : throw Error(at, $"must be at most 1h, got '{text}'");
        }
        catch (TplabException e) when (!e.Message.StartsWith("--plan", StringComparison.Ordinal))
        {
            throw Error(at, e.Message.Trim());
        }
    }

    /// <summary>A required non-empty list, each item present.</summary>
    public IReadOnlyList<T> List<T>(IReadOnlyList<T?>? list, string at, string what = "an object")
        where T : class =>
        list is not { Count: > 0 } ? throw Error(at, "is required (a non-empty list)")
            : [.. list.Select((item, i) => item ?? throw Error($"{at}[{i}]", $"must be {what}"))];

    /// <summary>The items of an optional list, each present.</summary>
    public IReadOnlyList<T> Items<T>(IReadOnlyList<T?>? list, string at)
        where T : class =>
        list is null ? [] : [.. list.Select((item, i) => item ?? throw Error($"{at}[{i}]", "must be an object"))];

    public static IReadOnlyList<KeyValuePair<string, string>> Pairs(IReadOnlyDictionary<string, string>? map) => map is null ? [] : [.. map];

    /// <summary>A file or folder named in the plan, relative to the plan's folder.</summary>
    public string RelativeToPlan(string file) => file.Contains('\0', StringComparison.Ordinal)
        ? throw TplabException.Usage($"--plan {Path}: the path '{file}' holds a NUL byte, which no path can")
        : System.IO.Path.GetFullPath(file, System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(Path))!);

    // System.Text.Json's path ("$.scenarios[0]['a.b']") as the plan's field ("scenarios[0].a.b").
    private static string FieldOf(string? path)
    {
        var field = (path ?? "$").TrimStart('$');
        field = System.Text.RegularExpressions.Regex.Replace(field, @"\['((?:[^']|'')*)'\]", m => "." + m.Groups[1].Value);
        return field.TrimStart('.');
    }

    // The record type the serializer wanted at a field (what the plan's value should have been).
    private static Type? TypeAt(string field)
    {
        var type = typeof(PlanFile);
        foreach (System.Text.RegularExpressions.Match part in Parts(field))
        {
            type = part.Groups[1].Success
                ? type?.GetGenericArguments().FirstOrDefault()
                : type is null ? null : PlanJsonContext.Plans.GetTypeInfo(type)?.Properties.FirstOrDefault(p => p.Name == part.Value)?.PropertyType;
        }
        return type is { IsGenericType: true } && type.GetGenericTypeDefinition() == typeof(Nullable<>) ? type.GetGenericArguments()[0] : type;
    }

    private static System.Text.RegularExpressions.MatchCollection Parts(string field) =>
        System.Text.RegularExpressions.Regex.Matches(field, @"[^.\[\]]+|\[(\d+)\]");

    // The value at a field of the tree the records were read from (for "got ..." in an error).
    private JsonNode? Node(string field)
    {
        JsonNode? node = document.Root;
        foreach (System.Text.RegularExpressions.Match part in Parts(field))
        {
            node = part.Groups[1].Success
                ? node is JsonArray a && int.Parse(part.Groups[1].Value, CultureInfo.InvariantCulture) is var i && i < a.Count ? a[i] : null
                : node is JsonObject o ? o[part.Value] : null;
        }
        return node;
    }
}
