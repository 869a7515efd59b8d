using System.Globalization;
using System.Text.RegularExpressions;
using Tplab.Common;
using Tplab.Load.Summary;

namespace Tplab.Load.Thresholds;

/// <summary>
/// A pass/fail objective on a run, as k6 has them: <c>p99&lt;500ms</c>, <c>mean&lt;=200ms</c>, <c>max&lt;2s</c>,
/// <c>errors&lt;1%</c>. Latency metrics (p50, p90, p95, p99, p99.9, mean, max) read the latency from the schedule;
/// <c>errors</c> is the share of requests that failed (transport errors and status 400 and above).
/// </summary>
public sealed partial record Threshold(string Metric, string Operator, double Limit, string Text)
{
    /// <summary>The metric names accepted.</summary>
    public const string Metrics = "p50, p90, p95, p99, p99.9, mean, max, errors";

    /// <summary>Parses one <c>--threshold</c>; a usage error with one line otherwise.</summary>
    public static Threshold Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var m = Shape().Match(text.Replace(" ", "", StringComparison.Ordinal));
        if (!m.Success)
        {
            throw TplabException.Usage($"--threshold must be METRIC<VALUE (e.g. 'p99<500ms', 'errors<1%'; metrics: {Metrics}), got '{text}'");
        }
        var metric = m.Groups["metric"].Value.ToLowerInvariant() switch
        {
            "p999" => "p99.9",
            var other => other,
        };
        var op = m.Groups["op"].Value;
        var value = m.Groups["value"].Value;
        if (metric == "errors")
        {
            if (!value.EndsWith('%') || !double.TryParse(value[..^1], NumberStyles.Float, CultureInfo.InvariantCulture, out var percent) || percent is < 0 or > 100)
            {
                throw TplabException.Usage($"--threshold errors takes a percentage from 0% to 100%, got '{text}'");
            }
            return new Threshold(metric, op, percent, text);
        }
        var limit = DurationText.Parse(value, "--threshold");
        return new Threshold(metric, op, limit.TotalMilliseconds, text);
    }

    /// <summary>This threshold's metric read from a finished summary (ms, or percent for errors).</summary>
    public double Read(LoadSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        return Read(summary.LatencyMs, summary.Requests, summary.Failed);
    }

    /// <summary>The metric from latency stats and counts (also used on live figures while the run goes on).</summary>
    public double Read(LatencyStats latency, long requests, long failed)
    {
        ArgumentNullException.ThrowIfNull(latency);
        return Metric switch
        {
            "p50" => latency.P50,
            "p90" => latency.P90,
            "p95" => latency.P95,
            "p99" => latency.P99,
            "p99.9" => latency.P999,
            "mean" => latency.Mean,
            "max" => latency.Max,
            _ => requests == 0 ? 0 : 100.0 * failed / requests,
        };
    }

    /// <summary>True when <paramref name="actual"/> meets the objective.</summary>
    public bool Passes(double actual) => Operator switch
    {
        "<" => actual < Limit,
        "<=" => actual <= Limit,
        ">" => actual > Limit,
        _ => actual >= Limit,
    };

    /// <summary>As given on the command line.</summary>
    public override string ToString() => Text;

    [GeneratedRegex(@"^(?<metric>p50|p90|p95|p99|p99\.9|p999|mean|max|errors)(?<op><=|>=|<|>)(?<value>[0-9][0-9.]*[a-z%]*)$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex Shape();
}
