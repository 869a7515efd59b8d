using System.Globalization;

namespace Tplab.Common;

/// <summary>
/// Durations as people type them: a number (decimals allowed) and a unit, <c>ms</c>, <c>s</c>, <c>m</c> or <c>h</c>
/// (<c>500ms</c>, <c>1.5s</c>, <c>10s</c>, <c>1m</c>, <c>2h</c>); a bare number means seconds. Invariant culture: always a dot.
/// </summary>
public static class DurationText
{
    private static readonly (string Unit, double Ticks)[] Units =
    [
        ("ms", TimeSpan.TicksPerMillisecond),
        ("s", TimeSpan.TicksPerSecond),
        ("m", TimeSpan.TicksPerMinute),
        ("h", TimeSpan.TicksPerHour),
    ];

    /// <summary>Parses a duration; throws a usage error naming <paramref name="option"/> when it is not one.</summary>
    public static TimeSpan Parse(string text, string option)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim();
        foreach (var (unit, ticks) in Units)
        {
            if (trimmed.EndsWith(unit, StringComparison.OrdinalIgnoreCase)
                && !(unit == "s" && trimmed.EndsWith("ms", StringComparison.OrdinalIgnoreCase))
                && TryNumber(trimmed[..^unit.Length], out var n))
            {
                return FromTicks(n * ticks, text, option);
            }
        }
        if (TryNumber(trimmed, out var seconds))
        {
            return FromTicks(seconds * TimeSpan.TicksPerSecond, text, option);
        }
        // What Format writes for a whole number of minutes and seconds (1m30s), and Go's form of it (1h2m3.5s).
        return TryCompound(trimmed, out var total)
            ? FromTicks(total, text, option)
            : throw TplabException.Usage($"{option} must be a duration such as 500ms, 1.5s, 10s, 1m, 1m30s or 2h, got '{text}'");
    }

    // Parts of a number and a unit each, largest unit first, each unit once: 2h, 1m30s, 1h2m3.5s, 1s500ms.
    private static bool TryCompound(string text, out double ticks)
    {
        ticks = 0;
        var last = int.MaxValue;
        var rest = text.AsSpan();
        if (rest.IsEmpty)
        {
            return false;
        }
        while (!rest.IsEmpty)
        {
            var digits = 0;
            while (digits < rest.Length && (char.IsAsciiDigit(rest[digits]) || rest[digits] == '.'))
            {
                digits++;
            }
            var unit = rest[digits..].StartsWith("ms", StringComparison.OrdinalIgnoreCase) ? 0
                : rest[digits..].StartsWith("s", StringComparison.OrdinalIgnoreCase) ? 1
                : rest[digits..].StartsWith("m", StringComparison.OrdinalIgnoreCase) ? 2
                : rest[digits..].StartsWith("h", StringComparison.OrdinalIgnoreCase) ? 3 : -1;
            if (digits == 0 || unit < 0 || unit >= last || !TryNumber(rest[..digits].ToString(), out var n))
            {
                return false;
            }
            ticks += n * Units[unit].Ticks;
            last = unit;
            rest = rest[(digits + Units[unit].Unit.Length)..];
        }
        return true;
    }

    /// <summary>Parses MIN..MAX (each a duration), e.g. <c>0..200ms</c>; MIN alone means MIN..MIN.</summary>
    public static (TimeSpan Min, TimeSpan Max) ParseRange(string text, string option)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parts = text.Split("..", 2);
        var unitOfMax = parts.Length == 2 ? Unit(parts[1]) : "";
        // "0..200ms": a bare MIN takes MAX's unit, so 0..200ms means 0 ms to 200 ms.
        var min = Parse(parts[0] + (Unit(parts[0]).Length == 0 && unitOfMax.Length > 0 ? unitOfMax : ""), option);
        var max = parts.Length == 2 ? Parse(parts[1], option) : min;
        return max < min ? throw TplabException.Usage($"{option} must be MIN..MAX with MIN <= MAX, got '{text}'") : (min, max);
    }

    /// <summary>Shortest readable form that <see cref="Parse"/> reads back to the same tick: 500ms, 1.5s, 1m, 1m30s.</summary>
    public static string Format(TimeSpan value)
    {
        if (value < TimeSpan.FromSeconds(1))
        {
            return value.TotalMilliseconds.ToString("0.####", CultureInfo.InvariantCulture) + "ms";
        }
        if (value < TimeSpan.FromMinutes(1) || value.Ticks % TimeSpan.TicksPerSecond != 0)
        {
            return value.TotalSeconds.ToString("0.#######", CultureInfo.InvariantCulture) + "s";
        }
        var minutes = (long)value.TotalMinutes;
        var seconds = value.Seconds;
        return seconds == 0 ? $"{minutes.ToString(CultureInfo.InvariantCulture)}m" : $"{minutes.ToString(CultureInfo.InvariantCulture)}m{seconds.ToString(CultureInfo.InvariantCulture)}s";
    }

    private static string Unit(string part)
    {
        var t = part.Trim();
        var i = t.Length;
        while (i > 0 && char.IsLetter(t[i - 1]))
        {
            i--;
        }
        return t[i..];
    }

    private static bool TryNumber(string s, out double value) =>
        double.TryParse(s, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out value) && double.IsFinite(value);

    private static TimeSpan FromTicks(double ticks, string text, string option) =>
        ticks > TimeSpan.MaxValue.Ticks / 2
            ? throw TplabException.Usage($"{option} is too long, got '{text}'")
            : TimeSpan.FromTicks((long)Math.Round(ticks));
}
