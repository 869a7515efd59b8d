using System.Text.Json;
using System.Text.Json.Serialization;

namespace Tplab.Common.Json;

/// <summary>
/// An enum written as a word through a naming policy, and read back from it in any case and with or without hyphens
/// (so <c>lockcontention</c>, which summary.json wrote before schema 2, still reads). A word that names no value is an
/// error that lists the words; numbers are refused.
/// </summary>
public abstract class EnumWordConverter<TEnum>(JsonNamingPolicy policy) : JsonConverter<TEnum>
    where TEnum : struct, Enum
{
    /// <inheritdoc />
    public override TEnum Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var word = reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
        return Words.Parse<TEnum>(word)
            ?? throw new JsonException($"{(word is not null ? $"'{word}' is not one of" : reader.TokenType == JsonTokenType.Null ? "null where a word is required: one of" : "not a word: one of")} {string.Join(", ", Enum.GetValues<TEnum>().Select(v => policy.ConvertName(v.ToString())))}");
    }

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, TEnum value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStringValue(policy.ConvertName(value.ToString()));
    }
}

/// <summary>An enum as a lower-case word with hyphens, the way every tplab output names it: <c>LockContention</c> is <c>lock-contention</c>.</summary>
public sealed class WordConverter<TEnum>() : EnumWordConverter<TEnum>(JsonNamingPolicy.KebabCaseLower)
    where TEnum : struct, Enum;

/// <summary>The words of <see cref="WordConverter{TEnum}"/>, for text outputs that must say the same.</summary>
public static class Words
{
    /// <summary><paramref name="value"/> as its word: <c>LockContention</c> is <c>lock-contention</c>.</summary>
    public static string Of<TEnum>(TEnum value)
        where TEnum : struct, Enum => JsonNamingPolicy.KebabCaseLower.ConvertName(value.ToString());

    /// <summary><paramref name="value"/> in camelCase: <c>TimedOut</c> is <c>timedOut</c>.</summary>
    public static string Camel<TEnum>(TEnum value)
        where TEnum : struct, Enum => JsonNamingPolicy.CamelCase.ConvertName(value.ToString());

    /// <summary>The value whose word is <paramref name="word"/> (any case, hyphens optional); null when none.</summary>
    public static TEnum? Parse<TEnum>(string? word)
        where TEnum : struct, Enum
    {
        if (string.IsNullOrWhiteSpace(word))
        {
            return null;
        }
        var bare = word.Replace("-", "", StringComparison.Ordinal).Trim();
        foreach (var value in Enum.GetValues<TEnum>())
        {
            if (string.Equals(value.ToString(), bare, StringComparison.OrdinalIgnoreCase))
            {
                return value;
            }
        }
        return null;
    }
}
