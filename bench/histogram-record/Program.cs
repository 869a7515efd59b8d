using System.Diagnostics;
using HdrHistogram;

// What one Record costs on the event loop: the hand-ported LatencyHistogram (Port.cs, copied from git by the script)
// against HdrHistogram.NET's LongHistogram behind the same clamp tplab's wrapper applies. Values are latencies in µs:
// "clustered" as a closed loop against a fast endpoint sees them (300..1,500 µs, cache-warm buckets), "wide" spread
// over 20 µs..440 ms (buckets all over the counts array). Rounds alternate which runs first; medians of 11 rounds.
var rounds = 11;
const int n = 20_000_000;
foreach (var spread in new[] { "clustered", "wide" })
{
    var random = new Random(1);
    var values = Enumerable.Range(0, 1 << 16)
        .Select(_ => spread == "clustered" ? 300 + (long)(random.NextDouble() * random.NextDouble() * 1200) : (long)Math.Exp((random.NextDouble() * 10) + 3))
        .ToArray();
    var port = new Port.LatencyHistogram();
    var library = new LongHistogram(100L * 3600 * 1_000_000, 3);
    var high = library.HighestTrackableValue;
    double Port()
    {
        var clock = Stopwatch.StartNew();
        for (var i = 0; i < n; i++)
        {
            port.Record(values[i & 0xFFFF]);
        }
        return clock.Elapsed.TotalNanoseconds / n;
    }
    double Library()
    {
        var clock = Stopwatch.StartNew();
        for (var i = 0; i < n; i++)
        {
            library.RecordValue(Math.Clamp(values[i & 0xFFFF], 0, high));
        }
        return clock.Elapsed.TotalNanoseconds / n;
    }
    for (var warm = 0; warm < 3; warm++)
    {
        Port();
        Library();
    }
    var p = new List<double>();
    var l = new List<double>();
    for (var r = 0; r < rounds; r++)
    {
        if (r % 2 == 0)
        {
            p.Add(Port());
            l.Add(Library());
        }
        else
        {
            l.Add(Library());
            p.Add(Port());
        }
    }
    p.Sort();
    l.Sort();
    if (port.TotalCount != library.TotalCount || port.ValueAtPercentile(99) != library.GetValueAtPercentile(99))
    {
        throw new InvalidOperationException("the two histograms disagree");
    }
    Console.WriteLine($"| {spread} | {p[rounds / 2]:F1} ({p[0]:F1}–{p[^1]:F1}) | {l[rounds / 2]:F1} ({l[0]:F1}–{l[^1]:F1}) | {l[rounds / 2] - p[rounds / 2]:F1} |");
}
