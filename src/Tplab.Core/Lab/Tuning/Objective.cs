using System.Globalization;
using System.Text.RegularExpressions;
using Tplab.Common;
using Tplab.Load;
using Tplab.Load.Summary;

namespace Tplab.Lab.Tuning;

/// <summary>
/// What a tuned service must meet, e.g. <c>p99&lt;1.2s</c>: a latency figure of the load (mean, p50, p90, p95, p99,
/// p999 or max) below a bound, with every request answered successfully and the load run to its end.
/// </summary>
public sealed partial record Objective(string Figure, TimeSpan Bound)
{
    /// <summary>Parses <c>FIGURE&lt;DURATION</c>; a mistake is a usage error naming the accepted forms.</summary>
    public static Objective Parse(string text)
    {
        var m = Pattern().Match(text ?? "");
        if (!m.Success)
        {
            throw TplabException.Usage($"--slo '{text}': give FIGURE<DURATION, e.g. 'p99<1.2s' (figures: mean, p50, p90, p95, p99, p999, max)");
        }
        return new Objective(m.Groups[1].Value.ToLowerInvariant(), DurationText.Parse(m.Groups[2].Value, "--slo"));
    }

    /// <summary>The figure in ms from a load summary.</summary>
    public double ValueMs(LatencyStats s) => Figure switch
    {
        "mean" => s.Mean,
        "p50" => s.P50,
        "p90" => s.P90,
        "p95" => s.P95,
        "p99" => s.P99,
        "p999" => s.P999,
        _ => s.Max,
    };

    /// <summary>The bound in milliseconds.</summary>
    public double BoundMs => Bound.TotalMilliseconds;

    /// <summary>As the user wrote it, normalised: <c>p99 &lt; 1.2 s</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Figure} < {DurationText.Format(Bound)}");

    [GeneratedRegex(@"^\s*(mean|p50|p90|p95|p99|p999|max)\s*<\s*(\S+)\s*$", RegexOptions.IgnoreCase)]
    private static partial Regex Pattern();
}
