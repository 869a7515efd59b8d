using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using Tplab.Common.Json;

namespace Tplab.Lab.Plans;

/// <summary>
/// The source-generated serializer of <see cref="PlanFile"/>, for JSON plans and (through the tree) YAML ones. Its
/// converters take what a person or YAML writes where the format wants a number, a flag, a duration or a NAME: VALUE map
/// (YAML's plain scalars arrive as text: <c>rate: 5</c> is "5"), and say in one line what they found instead.
/// </summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(PlanFile))]
internal sealed partial class PlanJsonContext : JsonSerializerContext
{
    /// <summary>Indented, fields left out when absent, numbers and flags read from text.</summary>
    public static PlanJsonContext Plans { get; } = new(Create());

    private static JsonSerializerOptions Create()
    {
        var options = TplabJson.Options(indented: true);
        options.DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull;
        options.Converters.Add(new PlanNumberConverter());
        options.Converters.Add(new PlanFlagConverter());
        return options;
    }
}

/// <summary>
/// A value a plan gives that its record cannot take, said in the plan's words (<c>must be a number, got "x"</c>);
/// <see cref="Relative"/> is the path below the value System.Text.Json names (a map's key, a list's index).
/// </summary>
internal sealed class PlanValueException(string relative, string? detail, Exception? inner = null) : JsonException(detail, inner)
{
    public string Relative { get; } = relative;

    /// <summary>The message in the plan's words; null when the inner exception is System.Text.Json's own.</summary>
    public string? Detail { get; } = detail;

    /// <summary>The value at <paramref name="reader"/> as compact JSON text (what "got ..." shows).</summary>
    public static string Raw(ref Utf8JsonReader reader)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            JsonElement.ParseValue(ref reader).WriteTo(writer);
        }
        return System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}

/// <summary>A number, or text that reads as one in the invariant culture (range checks are the reader's).</summary>
internal sealed class PlanNumberConverter : JsonConverter<double?>
{
    public override double? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType == JsonTokenType.Number && reader.TryGetDouble(out var d))
        {
            return d;
        }
        if (reader.TokenType == JsonTokenType.String && double.TryParse(reader.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out var t))
        {
            return t;
        }
        throw new PlanValueException("", $"must be a number, got {PlanValueException.Raw(ref reader)}");
    }

    public override void Write(Utf8JsonWriter writer, double? value, JsonSerializerOptions options)
    {
        if (value is { } v)
        {
            writer.WriteNumberValue(v);
        }
        else
        {
            writer.WriteNullValue();
        }
    }
}

/// <summary>true or false (YAML's plain words arrive as text).</summary>
internal sealed class PlanFlagConverter : JsonConverter<bool?>
{
    public override bool? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.TokenType switch
    {
        JsonTokenType.True or JsonTokenType.False => reader.GetBoolean(),
        JsonTokenType.String when reader.GetString() is "true" or "false" => reader.GetString() == "true",
        _ => throw new PlanValueException("", $"must be true or false, got {PlanValueException.Raw(ref reader)}"),
    };

    public override void Write(Utf8JsonWriter writer, bool? value, JsonSerializerOptions options)
    {
        if (value is { } v)
        {
            writer.WriteBooleanValue(v);
        }
        else
        {
            writer.WriteNullValue();
        }
    }
}

/// <summary>A duration as text (<c>5s</c>, <c>1m30s</c>) or a bare number of seconds; anything else as its JSON text. Parsed by the reader, which names the field.</summary>
internal sealed class PlanDurationConverter : JsonConverter<string?>
{
    public override string? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.TokenType switch
    {
        JsonTokenType.String => reader.GetString(),
        _ => PlanValueException.Raw(ref reader), // a number of seconds, or what the reader's duration check refuses by name
    };

    public override void Write(Utf8JsonWriter writer, string? value, JsonSerializerOptions options) => writer.WriteStringValue(value);
}

/// <summary>An object of NAME: VALUE (knobs, environment, headers): numbers and true/false kept as written, in the file's order.</summary>
internal sealed class PlanMapConverter : JsonConverter<IReadOnlyDictionary<string, string>?>
{
    public override IReadOnlyDictionary<string, string>? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw new PlanValueException("", $"must be an object of NAME: VALUE, got {PlanValueException.Raw(ref reader)}");
        }
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var key = reader.GetString()!;
            reader.Read();
            map[key] = reader.TokenType switch
            {
                JsonTokenType.String => reader.GetString()!,
                JsonTokenType.Number => PlanValueException.Raw(ref reader),
                JsonTokenType.True or JsonTokenType.False => reader.GetBoolean() ? "true" : "false",
                _ => throw new PlanValueException("." + key, "must be a number, true/false or a string"),
            };
        }
        return map;
    }

    public override void Write(Utf8JsonWriter writer, IReadOnlyDictionary<string, string>? value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        foreach (var (key, text) in value ?? new Dictionary<string, string>())
        {
            writer.WriteString(key, text);
        }
        writer.WriteEndObject();
    }
}

/// <summary>A scenario's requests: each an object, or a bare path (short for <c>{ path: ... }</c>).</summary>
internal sealed class PlanRequestsConverter : JsonConverter<IReadOnlyList<PlanRequest?>?>
{
    public override IReadOnlyList<PlanRequest?>? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw new PlanValueException("", $"must be a list of requests, got {PlanValueException.Raw(ref reader)}");
        }
        var list = new List<PlanRequest?>();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            var at = $"[{list.Count.ToString(CultureInfo.InvariantCulture)}]";
            switch (reader.TokenType)
            {
                case JsonTokenType.String:
                    list.Add(new PlanRequest { Path = reader.GetString() });
                    break;
                case JsonTokenType.StartObject:
                    try
                    {
                        list.Add(JsonSerializer.Deserialize(ref reader, PlanJsonContext.Plans.PlanRequest));
                    }
                    catch (JsonException e)
                    {
                        // The inner reader names its path from the request ("$.weight"): carried below this item.
                        var inner = (e.Path ?? "$").TrimStart('$') + (e as PlanValueException)?.Relative;
                        throw new PlanValueException(at + inner, (e as PlanValueException)?.Detail, e);
                    }
                    break;
                default:
                    throw new PlanValueException(at, "must be a path or an object with method, path, headers, body or bodyFile, weight, name");
            }
        }
        return list;
    }

    public override void Write(Utf8JsonWriter writer, IReadOnlyList<PlanRequest?>? value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartArray();
        foreach (var request in value ?? [])
        {
            JsonSerializer.Serialize(writer, request, PlanJsonContext.Plans.PlanRequest);
        }
        writer.WriteEndArray();
    }
}
