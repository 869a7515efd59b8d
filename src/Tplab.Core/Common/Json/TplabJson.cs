using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace Tplab.Common.Json;

/// <summary>
/// Writing and reading tplab's file formats with their source-generated records (README.md in this folder): one set of
/// options for every format, so escaping, indentation and line endings are the same everywhere.
/// </summary>
public static class TplabJson
{
    /// <summary>
    /// The options every format's context is created with: readable escaping (non-ASCII text such as "→" stays as it
    /// is; HTML pages escape "&lt;/" themselves), "\n" line endings on every OS, and numbers only as numbers.
    /// </summary>
    /// <param name="indented">Indented (files people open), or one line (JSONL, pages' embedded data).</param>
    /// <param name="pascalCase">Names as the C# properties are (a foreign format such as crank's), not camelCase.</param>
    /// <param name="numbers">How every number that is not whole is written unless its property says otherwise, e.g.
    /// <see cref="Round3"/> for a format whose figures are all milliseconds and seconds to three decimals; null: as is.</param>
    public static JsonSerializerOptions Options(bool indented, bool pascalCase = false, RoundedConverter? numbers = null)
    {
        var options = Create(indented, pascalCase);
        if (numbers is not null)
        {
            options.Converters.Add(numbers);
        }
        return options;
    }

    private static JsonSerializerOptions Create(bool indented, bool pascalCase) => new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        WriteIndented = indented,
        NewLine = "\n",
        NumberHandling = JsonNumberHandling.Strict,
        PropertyNamingPolicy = pascalCase ? null : JsonNamingPolicy.CamelCase,
        // A later tplab may add fields; a reader of this version keeps going without them.
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Skip,
        AllowTrailingCommas = false,
        ReadCommentHandling = JsonCommentHandling.Disallow,
    };

    /// <summary><paramref name="value"/> as JSON text (one line, or indented as <paramref name="type"/>'s options say).</summary>
    public static string Serialize<T>(T value, JsonTypeInfo<T> type) => JsonSerializer.Serialize(value, type);

    /// <summary>Writes <paramref name="value"/> and a final newline.</summary>
    public static void Write<T>(T value, JsonTypeInfo<T> type, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(JsonSerializer.Serialize(value, type));
        writer.Write('\n');
    }

    /// <summary>
    /// Reads <paramref name="text"/> as <paramref name="type"/>. Anything that is not one is a usage error in one line,
    /// "<paramref name="what"/> (the reason)": a missing required field, a wrong type, an unknown word; text that is not
    /// JSON at all starts with <paramref name="unreadable"/> instead, when given.
    /// </summary>
    public static T Read<T>(string text, JsonTypeInfo<T> type, string what, string? unreadable = null)
    {
        try
        {
            var value = JsonSerializer.Deserialize(text, type) ?? throw new JsonException("null instead of an object");
            JsonNulls.Check((object)value);
            return value;
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or InvalidOperationException or FormatException or ArgumentException)
        {
            // The reader's own syntax errors come wrapped, with the reader's exception inside.
            var syntax = e is JsonException { InnerException: JsonException };
            throw TplabException.Usage($"{(syntax ? unreadable ?? what : what)} ({Reason(e)})");
        }
    }

    /// <summary>
    /// The reason a document did not read, in one line, naming the field (<c>scenarios[0].load: ...</c>) and never a CLR
    /// type: System.Text.Json says "could not be converted to System.Double" or names the record a field is missing from.
    /// </summary>
    public static string Reason(Exception e)
    {
        ArgumentNullException.ThrowIfNull(e);
        var message = e.Message;
        var at = message.IndexOf(" Path: ", StringComparison.Ordinal);
        if (at >= 0)
        {
            message = message[..at];
        }
        var missing = message.IndexOf("missing required properties", StringComparison.Ordinal);
        if (missing >= 0)
        {
            message = message[missing..].TrimEnd('.');
        }
        else if (message.Contains(" could not be mapped to ", StringComparison.Ordinal))
        {
            message = "unknown field (check its spelling)";
        }
        else if (message.Contains(" could not be converted to ", StringComparison.Ordinal) || message.Contains("cannot be null", StringComparison.Ordinal))
        {
            message = "not a value of the expected type";
        }
        var path = (e as JsonException)?.Path;
        var field = path is null or "$" ? "" : path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] + ": " : path + ": ";
        return (field + message).ReplaceLineEndings(" ");
    }
}
