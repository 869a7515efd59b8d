using Tplab.Load.Engine;
using Tplab.Load.Formats;
using Tplab.Load.Histograms;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Histograms;

/// <summary>HdrHistogram's V2 encoding and interval log: what HdrHistogram wrote reads back, and logs merge exactly.</summary>
[ParallelSafe]
public sealed class HistogramLogTests
{
    // The first interval of HdrHistogram's own test log src/test/resources/org/HdrHistogram/jHiccup-2.0.7S.logV2.hlog
    // (written by the Java library): 2 significant digits, lowest value 20000 ns, highest one hour in ns.
    private const string JavaInterval = "HISTFAAAAEB42pNpmSzMwMAgywABTBDKT4GBgdnNYMcCBvsPEBEjDT0FMTUxMT05LgEhPqmIeWxtTAKMTNxM6xmZmAAjcgjc";

    [Fact]
    public void JavaWrittenEncoding_HeaderAndCountsRead()
    {
        var (digits, lowest, highest, total) = HistogramEncoding.Inspect(Convert.FromBase64String(JavaInterval));
        Assert.Equal(2, digits);
        Assert.Equal(20000, lowest);
        Assert.Equal(3_600_000_000_000, highest);
        Assert.Equal(802, total);
        // Not tplab's layout: merging it would misplace every value, so it is refused with the reason.
        var e = Assert.Throws<FormatException>(() => HistogramEncoding.DecodeInto(Convert.FromBase64String(JavaInterval), new LatencyHistogram()));
        Assert.Contains("2 significant digits", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Encoding_RoundTripsEveryCount()
    {
        var h = new LatencyHistogram();
        var random = new Random(7);
        for (var i = 0; i < 20_000; i++)
        {
            h.Record((long)Math.Exp(random.NextDouble() * 20));
        }
        h.RecordCount(3_600_000_000, 5);
        var back = new LatencyHistogram();
        HistogramEncoding.DecodeInto(HistogramEncoding.Encode(h), back);
        Assert.Equal(h.TotalCount, back.TotalCount);
        Assert.Equal(Counts(h), Counts(back));
    }

    [Fact]
    public void Encoding_IsWholeZlib_WithItsAdler32Trailer()
    {
        // HdrHistogram_py reads intervals with Python's zlib.decompress, which refuses a stream without the trailer
        // (HdrHistogram.NET 2.5.0's own compressed form leaves it out).
        var h = new LatencyHistogram();
        h.RecordCount(1500, 7);
        var encoded = HistogramEncoding.Encode(h);
        var zlib = encoded.AsSpan(8);
        Assert.Equal(encoded.Length - 8, System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(encoded.AsSpan(4)));
        using var inflate = new System.IO.Compression.DeflateStream(new MemoryStream(zlib[2..^4].ToArray()), System.IO.Compression.CompressionMode.Decompress);
        using var plain = new MemoryStream();
        inflate.CopyTo(plain);
        Assert.Equal(Adler32(plain.ToArray()), System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(zlib[^4..]));
        Assert.Equal(0, ((zlib[0] << 8) | zlib[1]) % 31);
    }

    [Fact]
    public void TwoRunsLogs_MergeToExactlyTheCombinedHistogram()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-hlog-");
        try
        {
            var combined = new LatencyHistogram();
            var paths = new List<string>();
            foreach (var (run, scale) in new[] { (0, 1.0), (1, 7.5) })
            {
                var path = Path.Combine(dir.FullName, $"run{run}.hlog");
                using (var file = new StreamWriter(path))
                {
                    var log = new HlogFormat().Open(file, DateTimeOffset.UnixEpoch.AddSeconds(1_800_000_000 + run));
                    for (var i = 0; i < 3000; i++)
                    {
                        var end = TimeSpan.FromMilliseconds(i);
                        var latency = TimeSpan.FromMilliseconds(scale * (1 + (i % 97)));
                        log.Write(new RequestRecord(end - latency, end - latency, end, end, 200, 0, 0, 0, null, 0));
                        combined.Record((long)Math.Round(latency.TotalMilliseconds * 1000));
                    }
                    log.Complete();
                }
                paths.Add(path);
            }
            var merged = HistogramLog.Merge(paths);
            Assert.Equal(2, merged.Files);
            Assert.Equal(6, merged.Intervals);
            Assert.Equal(6000, merged.Histogram.TotalCount);
            foreach (var p in new[] { 50.0, 90, 99, 99.9, 100 })
            {
                Assert.Equal(combined.ValueAtPercentile(p), merged.Histogram.ValueAtPercentile(p));
            }
            // Run 1 started a second after run 0; each ran until its last request ended at 2.999 s.
            Assert.Equal(3.999, (merged.End!.Value - merged.Start!.Value).TotalSeconds, 3);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    // Every bucket that holds a count: its value and count.
    private static List<(long Value, long Count)> Counts(LatencyHistogram h) =>
        [.. h.Inner.RecordedValues().Select(v => (v.ValueIteratedTo, v.CountAtValueIteratedTo))];

    private static uint Adler32(byte[] data)
    {
        uint a = 1, b = 0;
        foreach (var x in data)
        {
            a = (a + x) % 65521;
            b = (b + a) % 65521;
        }
        return (b << 16) | a;
    }
}
