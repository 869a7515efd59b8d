using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// siege's end-of-run statistics (src/main.c, v4.1.5 units: seconds): Availability = hits / (hits + socket failures),
/// Transaction rate = hits / elapsed, Concurrency = Σ transaction time / elapsed, Successful = status below 400.
/// </summary>
public sealed class SiegeFormat : ISummaryFormat
{
    /// <inheritdoc />
    public string Name => "siege";

    /// <inheritdoc />
    public string Description => "siege's statistics block";

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(writer);
        var s = summary;
        var hits = s.Responded;
        var elapsed = s.DurationSeconds;
        var megabytes = s.BytesIn / (1024.0 * 1024.0);
        var responseSeconds = s.ServiceTimeMs.Count == 0 ? 0 : s.TotalServiceSeconds / s.Requests;
        if (s.Interrupted)
        {
            writer.WriteLine("(interrupted: partial results)");
        }
        writer.WriteLine($"Transactions:\t\t{Num.Int(hits, 12)} hits");
        writer.WriteLine($"Availability:\t\t{Num.Fixed(hits + s.TransportErrors == 0 ? 0 : 100.0 * hits / (hits + s.TransportErrors), 2, 12)} %");
        writer.WriteLine($"Elapsed time:\t\t{Num.Fixed(elapsed, 2, 12)} secs");
        writer.WriteLine($"Data transferred:\t{Num.Fixed(megabytes, 2, 12)} MB");
        writer.WriteLine($"Response time:\t\t{Num.Fixed(responseSeconds, 2, 12)} secs");
        writer.WriteLine($"Transaction rate:\t{Num.Fixed(elapsed > 0 ? hits / elapsed : 0, 2, 12)} trans/sec");
        writer.WriteLine($"Throughput:\t\t{Num.Fixed(elapsed > 0 ? megabytes / elapsed : 0, 2, 12)} MB/sec");
        writer.WriteLine($"Concurrency:\t\t{Num.Fixed(elapsed > 0 ? s.TotalServiceSeconds / elapsed : 0, 2, 12)}");
        writer.WriteLine($"Successful transactions:{Num.Int(s.Succeeded, 12)}");
        writer.WriteLine($"Failed transactions:\t{Num.Int(s.TransportErrors, 12)}");
        writer.WriteLine($"Longest transaction:\t{Num.Fixed(s.ServiceTimeMs.Max / 1000, 2, 12)}");
        writer.WriteLine($"Shortest transaction:\t{Num.Fixed(s.ServiceTimeMs.Min / 1000, 2, 12)}");
    }
}
