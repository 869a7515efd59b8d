using System.Globalization;

namespace Tplab.Load.Requests;

/// <summary>
/// Reads the handler-timing entry of a W3C <c>Server-Timing</c> response header:
/// <c>Server-Timing: handler;start=1763719200123.456;dur=1000.2</c>, where <c>start</c> is the wall-clock time
/// (Unix epoch milliseconds) at which the app's first middleware began the request and <c>dur</c> the milliseconds
/// until the response was produced. A load generator on the same machine subtracts its send time from
/// <c>start</c> to learn how long the request waited for a thread. Other entries of the header are ignored.
/// </summary>
public static class ServerTiming
{
    /// <summary>The header's name.</summary>
    public const string HeaderName = "Server-Timing";

    /// <summary>The metric's name inside the header.</summary>
    public const string MetricName = "handler";

    /// <summary>Finds the <c>handler</c> metric with numeric <c>start</c> and <c>dur</c> in one header value.</summary>
    public static bool TryParseHandler(ReadOnlySpan<char> header, out double startUnixMs, out double durationMs)
    {
        startUnixMs = double.NaN;
        durationMs = double.NaN;
        foreach (var metricRange in header.Split(','))
        {
            var metric = header[metricRange];
            var found = false;
            double start = double.NaN, dur = double.NaN;
            var first = true;
            foreach (var partRange in metric.Split(';'))
            {
                var part = metric[partRange].Trim();
                if (first)
                {
                    found = part.Equals(MetricName, StringComparison.OrdinalIgnoreCase);
                    first = false;
                    if (!found)
                    {
                        break;
                    }
                    continue;
                }
                var eq = part.IndexOf('=');
                if (eq <= 0)
                {
                    continue;
                }
                var name = part[..eq].Trim();
                var value = part[(eq + 1)..].Trim().Trim('"');
                if (!double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number))
                {
                    continue;
                }
                if (name.Equals("start", StringComparison.OrdinalIgnoreCase))
                {
                    start = number;
                }
                else if (name.Equals("dur", StringComparison.OrdinalIgnoreCase))
                {
                    dur = number;
                }
            }
            if (found && !double.IsNaN(start) && !double.IsNaN(dur) && dur >= 0)
            {
                startUnixMs = start;
                durationMs = dur;
                return true;
            }
        }
        return false;
    }

    /// <summary>The header value for a handler that started at <paramref name="start"/> and ran <paramref name="duration"/>.</summary>
    public static string Format(DateTimeOffset start, TimeSpan duration) =>
        string.Create(CultureInfo.InvariantCulture, $"{MetricName};start={(start - DateTimeOffset.UnixEpoch).TotalMilliseconds:0.###};dur={duration.TotalMilliseconds:0.###}");
}
