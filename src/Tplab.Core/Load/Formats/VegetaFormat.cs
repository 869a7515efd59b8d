using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// vegeta's text report (lib/reporters.go): Rate = requests / attack time, Throughput = successes / (attack + wait),
/// latencies min, mean, 50, 90, 95, 99, max as Go durations, success ratio, status codes and the error set.
/// vegeta times from the actual send, so its latencies here are tplab's service times.
/// </summary>
public sealed class VegetaFormat : ISummaryFormat
{
    /// <inheritdoc />
    public string Name => "vegeta";

    /// <inheritdoc />
    public string Description => "vegeta's text report";

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(writer);
        var s = summary;
        var l = s.ServiceTimeMs;
        var n = Math.Max(1, s.Requests);
        var rate = s.SendingSeconds > 0 ? s.Requests / s.SendingSeconds : 0;
        var throughput = s.DurationSeconds > 0 ? s.Succeeded / s.DurationSeconds : 0;
        if (s.Interrupted)
        {
            writer.WriteLine("(interrupted: partial results)");
        }
        Line(writer, "Requests", "[total, rate, throughput]", $"{Num.F(s.Requests)}, {Num.Fixed(rate, 2)}, {Num.Fixed(throughput, 2)}");
        Line(writer, "Duration", "[total, attack, wait]", $"{Go(s.DurationSeconds * 1000)}, {Go(s.SendingSeconds * 1000)}, {Go(s.WaitSeconds * 1000)}");
        Line(writer, "Latencies", "[min, mean, 50, 90, 95, 99, max]", string.Join(", ", new[] { l.Min, l.Mean, l.P50, l.P90, l.P95, l.P99, l.Max }.Select(Go)));
        Line(writer, "Bytes In", "[total, mean]", $"{Num.F(s.BodyBytesIn)}, {Num.Fixed((double)s.BodyBytesIn / n, 2)}");
        Line(writer, "Bytes Out", "[total, mean]", "0, 0.00");
        Line(writer, "Success", "[ratio]", $"{Num.Fixed(100.0 * s.Succeeded / n, 2)}%");
        Line(writer, "Status Codes", "[code:count]", string.Concat(s.StatusCodes.Select(c => $"{Num.F(c.Key)}:{Num.F(c.Value)}  ")));
        writer.WriteLine("Error Set:");
        foreach (var error in s.Errors)
        {
            writer.WriteLine(error.Message);
        }
        // vegeta puts a status outside 200-399 in the error set as "<code> <reason>".
        foreach (var code in s.StatusCodes.Where(c => c.Key >= 400 || c.Key is > 0 and < 200))
        {
            writer.WriteLine($"{Num.F(code.Key)} {ReasonPhrase(code.Key)}".TrimEnd());
        }
    }

    // vegeta's tabwriter columns: the name padded to 14, the field list to 34.
    private static void Line(TextWriter writer, string name, string fields, string values) =>
        writer.WriteLine($"{name,-14}{fields,-34}{values}".TrimEnd() + (values.EndsWith("  ", StringComparison.Ordinal) ? "  " : ""));

    private static string Go(double ms) => GoDuration.Format(ms);

    // "InternalServerError" -> "Internal Server Error"; an unnamed code has no phrase.
    private static string ReasonPhrase(int code)
    {
        var name = ((System.Net.HttpStatusCode)code).ToString();
        return int.TryParse(name, out _) ? "" : string.Concat(name.Select((ch, i) => i > 0 && char.IsUpper(ch) ? " " + ch : ch.ToString()));
    }
}
