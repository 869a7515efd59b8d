using System.Globalization;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Formats;
using Tplab.Load.Histograms;
using Tplab.Load.Summary;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Formats;

/// <summary>
/// Every format against a snapshot, under the invariant culture and under de-DE (decimal comma): the output must be
/// the same byte for byte in both, since numbers are always written invariant; against the snapshot, JSON is compared
/// parsed and an .hlog's histograms decoded (the same counts may be encoded to other bytes).
/// </summary>
[ParallelSafe]
public sealed class FormatSnapshotTests
{
    private static readonly DateTimeOffset StartedAt = new(2026, 1, 2, 3, 4, 5, TimeSpan.Zero);

    public static TheoryData<string, string> Cases()
    {
        var data = new TheoryData<string, string>();
        // html inlines the report's scripts and styles: HtmlReportTests opens it in Chromium and checks it culture-free.
        foreach (var format in LoadFormats.Catalogue.All.Where(f => f is not IResultFormat))
        {
            data.Add(format.Name, "closed");
            data.Add(format.Name, "open");
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Format_MatchesSnapshot_InEveryCulture(string formatName, string model)
    {
        var result = model == "closed" ? ClosedResult() : OpenResult();
        var format = LoadFormats.Catalogue.Find(formatName);
        var invariant = Render(format, result, CultureInfo.InvariantCulture);
        var german = Render(format, result, CultureInfo.GetCultureInfo("de-DE"));
        Assert.Equal(invariant, german);
        if (formatName is "json" or "crank")
        {
            // JSON is compared parsed: escaping and field order may change, values may not.
            Snapshot.MatchJson(invariant, $"Load/{model}.{formatName}.txt");
        }
        else
        {
            Snapshot.Match(invariant, $"Load/{model}.{formatName}.txt", formatName == "hlog" ? DecodedHlog : null);
        }
    }

    // An .hlog with each interval's histogram decoded into its buckets: the same counts may encode to other bytes
    // (another zlib, another encoder), and readers see only the counts.
    private static string DecodedHlog(string log) => string.Join("\n", log.Split('\n').Select(line =>
    {
        var fields = line.Split(',');
        if (line.StartsWith('#') || line.StartsWith('"') || fields.Length != 4)
        {
            return line;
        }
        var h = new LatencyHistogram();
        HistogramEncoding.DecodeInto(Convert.FromBase64String(fields[3]), h);
        return $"{fields[0]},{fields[1]},{fields[2]},{h.TotalCount}: {string.Join(" ", h.Inner.RecordedValues().Select(v => $"{v.ValueIteratedTo}x{v.CountAtValueIteratedTo}"))}";
    }));

    [Fact]
    public void AbPercentileTable_UsesSortedIndexCountTimesPOver100_WithoutInterpolation()
    {
        // 10 samples 10, 20, ... 100 ms: ab's 50% is sorted[10*50/100] = sorted[5] = 60 (not an interpolated 55).
        var text = Render(LoadFormats.Catalogue.Find("ab"), ClosedResult(), CultureInfo.InvariantCulture);
        Assert.Contains("  50%     60\n", text, StringComparison.Ordinal);
        Assert.Contains("  90%    100\n", text, StringComparison.Ordinal);
        Assert.Contains(" 100%    100 (longest request)\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public void JMeterStdDev_IsThePopulationStandardDeviation()
    {
        var summary = ClosedResult().Summary;
        // Population SD of 10, 20, ..., 100 is sqrt(825) = 28.72; the sample SD would be 30.28.
        Assert.Equal(28.72, Math.Round(summary.LatencyMs.StdDev, 2));
        Assert.Contains("28.72", Render(LoadFormats.Catalogue.Find("jmeter"), ClosedResult(), CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    private static string Render(ILoadFormat format, LoadResult result, CultureInfo culture)
    {
        var saved = CultureInfo.CurrentCulture;
        try
        {
            CultureInfo.CurrentCulture = culture;
            CultureInfo.CurrentUICulture = culture;
            using var writer = new StringWriter(CultureInfo.InvariantCulture) { NewLine = "\n" };
            LoadFormats.Write(format, result, writer);
            return writer.ToString();
        }
        finally
        {
            CultureInfo.CurrentCulture = saved;
            CultureInfo.CurrentUICulture = saved;
        }
    }

    // Ten users' requests of 10..100 ms, one length mismatch (a 503) and no transport error.
    private static LoadResult ClosedResult()
    {
        var options = new LoadOptions { Url = new Uri("http://127.0.0.1:5000/delay?ms=10"), Concurrency = 10, Requests = 10 };
        var records = Enumerable.Range(1, 10).Select(i =>
        {
            var start = TimeSpan.FromMilliseconds(i);
            var end = start + TimeSpan.FromMilliseconds(10 * i);
            var status = i == 7 ? 503 : 200;
            return new RequestRecord(start, start, start + TimeSpan.FromMilliseconds(8 * i), end, status, 130 + (status == 503 ? 20 : 0), status == 503 ? 24 : 4, 58, null, i - 1);
        }).ToList();
        return Aggregate(options, records, "Kestrel");
    }

    // 50/s for 0.2 s: ten hits, two sent late, one refused.
    private static LoadResult OpenResult()
    {
        var options = new LoadOptions { Url = new Uri("http://localhost:8080/sleep?ms=1000"), Rate = 50, Duration = TimeSpan.FromSeconds(0.2) };
        var records = Enumerable.Range(0, 10).Select(i =>
        {
            var scheduled = TimeSpan.FromMilliseconds(20 * i);
            var start = scheduled + TimeSpan.FromMilliseconds(i is 3 or 4 ? 5.5 : 0.25);
            var end = start + TimeSpan.FromMilliseconds(1000 + (37 * i));
            return i == 9
                ? new RequestRecord(scheduled, start, start, start + TimeSpan.FromMilliseconds(1), 0, 0, 0, 61, "connect: Connection refused (localhost:8080)", -1)
                : new RequestRecord(scheduled, start, end - TimeSpan.FromMilliseconds(1), end, 200, 129, 3, 61, null, -1);
        }).ToList();
        return Aggregate(options, records, null);
    }

    // Exact latencies kept, as the command keeps them when ab is among its formats (ab's percentile table reads them).
    private static LoadResult Aggregate(LoadOptions options, List<RequestRecord> records, string? server)
    {
        var aggregator = new SummaryAggregator(options with { ExactLatencies = true });
        foreach (var r in records)
        {
            aggregator.Add(r);
        }
        return new LoadResult(aggregator.Complete(interrupted: false, server), records, StartedAt);
    }
}
