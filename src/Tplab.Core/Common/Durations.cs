using System.Globalization;

namespace Tplab.Common;

/// <summary>
/// Parses the durations users type: <c>500ms</c>, <c>10s</c>, <c>1.5s</c>, <c>2m</c>, <c>1h</c>, or a bare number of seconds.
/// </summary>
public static class Durations
{
    /// <summary>Parses <paramref name="text"/>; false with a reason when it is not a duration.</summary>
    public static bool TryParse(string? text, out TimeSpan value, out string reason)
    {
        value = TimeSpan.Zero;
        reason = "";
        var s = (text ?? "").Trim();
        var unit = s.EndsWith("ms", StringComparison.OrdinalIgnoreCase) ? "ms"
            : s.Length > 0 && char.IsLetter(s[^1]) ? s[^1..].ToLowerInvariant()
            : "s";
        var number = s.EndsWith(unit, StringComparison.OrdinalIgnoreCase) ? s[..^unit.Length] : s;
        if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var n) || double.IsNaN(n) || double.IsInfinity(n))
        {
            reason = $"'{text}' is not a duration (examples: 500ms, 10s, 1.5s, 2m, 1h)";
            return false;
        }
        var ms = unit switch
        {
            "ms" => n,
            "s" => n * 1000,
            "m" => n * 60_000,
            "h" => n * 3_600_000,
            _ => double.NaN,
        };
        if (double.IsNaN(ms))
        {
            reason = $"'{text}' has an unknown unit (use ms, s, m or h)";
            return false;
        }
        if (ms < 0 || ms > TimeSpan.FromDays(7).TotalMilliseconds)
        {
            reason = $"'{text}' is out of range (0 to 7 days)";
            return false;
        }
        value = TimeSpan.FromMilliseconds(ms);
        return true;
    }

    /// <summary>Parses or throws a usage error naming <paramref name="what"/>.</summary>
    public static TimeSpan Parse(string? text, string what) =>
        TryParse(text, out var value, out var reason) ? value : throw TplabException.Usage($"{what}: {reason}");

    /// <summary>Formats a duration the way it is parsed: <c>1.5s</c>, <c>250ms</c>.</summary>
    public static string Format(TimeSpan value) =>
        value.TotalSeconds >= 1 || value == TimeSpan.Zero
            ? string.Create(CultureInfo.InvariantCulture, $"{value.TotalSeconds:0.###}s")
            : string.Create(CultureInfo.InvariantCulture, $"{value.TotalMilliseconds:0.###}ms");
}
