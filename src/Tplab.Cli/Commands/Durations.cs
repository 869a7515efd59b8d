using System.Globalization;
using Tplab.Common;

namespace Tplab.Cli.Commands;

/// <summary>Parses durations as users type them: 250ms, 0.25s, 1s, 2m, 1h, or a bare number of seconds.</summary>
internal static class Durations
{
    public static TimeSpan Parse(string text, string option)
    {
        var t = text.Trim();
        var (number, unit) =
            t.EndsWith("ms", StringComparison.OrdinalIgnoreCase) ? (t[..^2], 0.001)
            : t.EndsWith('s') || t.EndsWith('S') ? (t[..^1], 1.0)
            : t.EndsWith('m') || t.EndsWith('M') ? (t[..^1], 60.0)
            : t.EndsWith('h') || t.EndsWith('H') ? (t[..^1], 3600.0)
            : (t, 1.0);
        if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value) || value <= 0)
        {
            throw TplabException.Usage($"{option} must be a positive duration such as 250ms, 1s or 2m, got '{text}'");
        }
        return TimeSpan.FromSeconds(value * unit);
    }
}
