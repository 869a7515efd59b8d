using System.Globalization;
using Tplab.Common;

namespace Tplab.Cli.Commands;

/// <summary>Parses durations as people type them: <c>5s</c>, <c>500ms</c>, <c>2m</c>, or a bare number of seconds.</summary>
internal static class DurationText
{
    public static TimeSpan Parse(string text, string option)
    {
        var t = text.Trim();
        var (number, scale) =
            t.EndsWith("ms", StringComparison.OrdinalIgnoreCase) ? (t[..^2], 0.001)
            : t.EndsWith('s') || t.EndsWith('S') ? (t[..^1], 1.0)
            : t.EndsWith('m') || t.EndsWith('M') ? (t[..^1], 60.0)
            : (t, 1.0);
        return double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) && value >= 0
            ? TimeSpan.FromSeconds(value * scale)
            : throw TplabException.Usage($"{option} must be a duration such as 5s, 500ms or 2m, got '{text}'");
    }
}
