// HdrHistogram.NET's own merge of interval logs, the reference bench/crank.sh holds `tplab load merge` to: every
// interval of every file read by HdrHistogram's HistogramLogReader (not tplab's decoder) and added into one histogram.
// Prints one JSON object in tplab load merge's units: requests, and latency in ms (the logs hold µs).
using System.Text.Json;
using HdrHistogram;

HistogramBase? total = null;
foreach (var file in args)
{
    using var stream = File.OpenRead(file);
    foreach (var interval in new HistogramLogReader(stream).ReadHistograms())
    {
        total ??= new LongHistogram(interval.HighestTrackableValue, interval.NumberOfSignificantValueDigits);
        total.Add(interval);
    }
}
if (total is null)
{
    Console.Error.WriteLine("hdr-merge: no interval in " + string.Join(", ", args));
    return 2;
}
static double Ms(long us) => Math.Round(us / 1000.0, 3);
var result = new Dictionary<string, object>
{
    ["requests"] = total.TotalCount,
    ["p50"] = Ms(total.GetValueAtPercentile(50)),
    ["p90"] = Ms(total.GetValueAtPercentile(90)),
    ["p95"] = Ms(total.GetValueAtPercentile(95)),
    ["p99"] = Ms(total.GetValueAtPercentile(99)),
    ["p999"] = Ms(total.GetValueAtPercentile(99.9)),
    ["p9999"] = Ms(total.GetValueAtPercentile(99.99)),
    ["max"] = Ms(total.GetMaxValue()),
    ["mean"] = Math.Round(total.GetMean() / 1000.0, 3),
};
Console.WriteLine(JsonSerializer.Serialize(result));
return 0;
