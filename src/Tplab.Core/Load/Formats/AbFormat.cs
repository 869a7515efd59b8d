using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// ApacheBench's report (support/ab.c, 2.4.x), field for field, so a seed's ab output compares line by line.
/// The percentile table uses ab's rule, <c>sorted[count * p / 100]</c> with no interpolation, on the exact samples.
/// tplab cannot see connect time through HttpClient: the Connect row is 0 and Processing equals Total.
/// </summary>
public sealed class AbFormat : ISummaryFormat
{
    private static readonly int[] Percentages = [50, 66, 75, 80, 90, 95, 98, 99];

    /// <inheritdoc />
    public string Name => "ab";

    /// <inheritdoc />
    public string Description => "ApacheBench's report and percentile table";

    /// <inheritdoc />
    public bool NeedsExactLatencies => true;

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(writer);
        var s = summary;
        var done = Math.Max(1, s.Requests);
        var seconds = s.DurationSeconds;
        if (s.Interrupted)
        {
            writer.WriteLine("(interrupted: partial results)");
        }
        writer.WriteLine();
        Line(writer, "Server Software:", s.ServerSoftware ?? "");
        Line(writer, "Server Hostname:", s.Url.Host);
        Line(writer, "Server Port:", Num.F(s.Url.Port));
        writer.WriteLine();
        Line(writer, "Document Path:", s.Url.PathAndQuery);
        Line(writer, "Document Length:", $"{Num.F(s.DocumentLength ?? 0)} bytes");
        writer.WriteLine();
        Line(writer, "Concurrency Level:", Num.F(s.Concurrency));
        Line(writer, "Time taken for tests:", $"{Num.Fixed(seconds, 3)} seconds");
        Line(writer, "Complete requests:", Num.F(s.Requests));
        var failed = s.TransportErrors + s.LengthMismatches;
        Line(writer, "Failed requests:", Num.F(failed));
        if (failed > 0)
        {
            var connect = s.Errors.Where(e => e.Message.StartsWith("connect", StringComparison.Ordinal)).Sum(e => e.Count);
            writer.WriteLine($"   (Connect: {Num.F(connect)}, Receive: {Num.F(s.TransportErrors - connect)}, Length: {Num.F(s.LengthMismatches)}, Exceptions: 0)");
        }
        var non2xx = s.StatusCodes.Where(c => c.Key != 0 && c.Key is < 200 or >= 300).Sum(c => c.Value);
        if (non2xx > 0)
        {
            Line(writer, "Non-2xx responses:", Num.F(non2xx));
        }
        Line(writer, "Total transferred:", $"{Num.F(s.BytesIn)} bytes");
        Line(writer, "HTML transferred:", $"{Num.F(s.BodyBytesIn)} bytes");
        Line(writer, "Requests per second:", $"{Num.Fixed(seconds > 0 ? s.Requests / seconds : 0, 2)} [#/sec] (mean)");
        Line(writer, "Time per request:", $"{Num.Fixed(s.Concurrency * seconds * 1000 / done, 3)} [ms] (mean)");
        Line(writer, "Time per request:", $"{Num.Fixed(seconds * 1000 / done, 3)} [ms] (mean, across all concurrent requests)");
        Line(writer, "Transfer rate:", $"{Num.Fixed(seconds > 0 ? s.BytesIn / 1024.0 / seconds : 0, 2)} [Kbytes/sec] received");
        writer.WriteLine();
        writer.WriteLine("Connection Times (ms)");
        writer.WriteLine("              min  mean[+/-sd] median   max");
        Row(writer, "Connect:    ", LatencyStats.Empty, 0);
        Row(writer, "Processing: ", s.LatencyMs, Median(s));
        Row(writer, "Waiting:    ", s.WaitingMs, s.WaitingMs.P50);
        Row(writer, "Total:      ", s.LatencyMs, Median(s));
        writer.WriteLine();
        writer.WriteLine("Percentage of the requests served within a certain time (ms)");
        if (s.Requests == 0)
        {
            return;
        }
        foreach (var p in Percentages)
        {
            writer.WriteLine($"  {Num.F(p)}%  {Num.Int(Ms(AtPercent(s, p)), 5)}");
        }
        writer.WriteLine($" 100%  {Num.Int(Ms(s.LatencyMs.Max), 5)} (longest request)");
    }

    private static void Line(TextWriter writer, string label, string value) => writer.WriteLine($"{label,-24}{value}");

    // ab's CONF_FMT_STRING: "%5d %4d %5.1f %6d %7d" after a 12-character label.
    private static void Row(TextWriter writer, string label, LatencyStats stats, double median) =>
        writer.WriteLine($"{label}{Num.Int(Ms(stats.Min), 5)} {Num.Int(Ms(stats.Mean), 4)} {Num.Fixed(stats.SampleStdDev, 1, 5)} {Num.Int(Ms(median), 6)} {Num.Int(Ms(stats.Max), 7)}");

    private static double AtPercent(LoadSummary s, int p) =>
        s.SortedLatenciesMs is { Count: > 0 } sorted
            ? sorted[(int)(sorted.Count * (long)p / 100)]
            : s.LatencyHistogramMicros.ValueAtPercentile(p) / 1000.0;

    private static double Median(LoadSummary s)
    {
        if (s.SortedLatenciesMs is not { Count: > 0 } sorted)
        {
            return s.LatencyMs.P50;
        }
        var n = sorted.Count;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[(n / 2) - 1] + sorted[n / 2]) / 2;
    }

    private static long Ms(double ms) => (long)Math.Round(ms, MidpointRounding.AwayFromZero);
}
