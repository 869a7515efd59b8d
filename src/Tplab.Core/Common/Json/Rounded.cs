using System.Text.Json;
using System.Text.Json.Serialization;

namespace Tplab.Common.Json;

/// <summary>
/// A number written with at most <c>digits</c> decimals: what the figure can carry (a latency in microseconds, a
/// percentage to a tenth) and no more, so files stay readable and stable. A value that is not finite is written as 0,
/// since JSON has no NaN. Reads any JSON number. One class per precision, since the source generator needs a
/// parameterless converter: <c>[JsonConverter(typeof(Round3))]</c>.
/// </summary>
public abstract class RoundedConverter(int digits) : JsonConverter<double>
{
    /// <summary>The decimals written.</summary>
    public int Digits { get; } = digits;

    /// <summary>
    /// The value as written: rounded to <see cref="Digits"/>, halves away from zero as the text outputs' "0.0" formats
    /// round them (so a JSON figure and the table beside it agree), 0 when not finite.
    /// </summary>
    public static double Round(double value, int digits) => double.IsFinite(value) ? Math.Round(value, digits, MidpointRounding.AwayFromZero) : 0;

    /// <inheritdoc />
    public override bool HandleNull => false;

    /// <inheritdoc />
    public override double Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.Number ? reader.GetDouble() : throw new JsonException($"expected a number, got {Token(reader.TokenType)}");

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, double value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteNumberValue(Round(value, Digits));
    }

    private static string Token(JsonTokenType type) => type switch
    {
        JsonTokenType.String => "a string",
        JsonTokenType.True or JsonTokenType.False => "a boolean",
        JsonTokenType.StartObject => "an object",
        JsonTokenType.StartArray => "an array",
        JsonTokenType.Null => "null",
        _ => type.ToString(),
    };
}

/// <summary>Whole numbers (milliseconds of a counter's age).</summary>
public sealed class Round0() : RoundedConverter(0);

/// <summary>One decimal (percentages, rates per second).</summary>
public sealed class Round1() : RoundedConverter(1);

/// <summary>Two decimals (cores, threads on average).</summary>
public sealed class Round2() : RoundedConverter(2);

/// <summary>Three decimals (milliseconds to the microsecond, seconds to the millisecond).</summary>
public sealed class Round3() : RoundedConverter(3);

/// <summary>Four decimals (a hold time in seconds).</summary>
public sealed class Round4() : RoundedConverter(4);
