using System.Globalization;
using Tplab.Common;

namespace Tplab.Load.Histograms;

/// <summary>
/// HdrHistogram's interval log (<c>.hlog</c>, log format 1.3, as HistogramLogWriter and jHiccup write it): a few
/// <c>#[...]</c> header lines, the legend, then one line per interval: start (seconds after StartTime), length (s),
/// the interval's max (ms) and the base64 of its compressed histogram. Logs from several processes or machines
/// merge exactly by adding their histograms (<see cref="Merge"/>).
/// </summary>
public static class HistogramLog
{
    /// <summary>The legend line every reader looks for.</summary>
    public const string Legend = "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"";

    /// <summary>Writes the header: format version, start time and legend.</summary>
    public static void WriteHeader(TextWriter writer, DateTimeOffset startTime, string comment)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write($"#[{comment}]\n");
        writer.Write("#[Histogram log format version 1.3]\n");
        writer.Write(string.Create(CultureInfo.InvariantCulture,
            $"#[StartTime: {startTime.ToUnixTimeMilliseconds() / 1000.0:0.000} (seconds since epoch), {startTime.UtcDateTime:ddd MMM dd HH:mm:ss 'UTC' yyyy}]\n"));
        writer.Write(Legend + "\n");
    }

    /// <summary>Writes one interval (values in µs; the max column in ms).</summary>
    public static void WriteInterval(TextWriter writer, TimeSpan start, TimeSpan length, LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(histogram);
        writer.Write(string.Create(CultureInfo.InvariantCulture,
            $"{start.TotalSeconds:0.000},{length.TotalSeconds:0.000},{histogram.MaxValue / 1000.0:0.000},{Convert.ToBase64String(HistogramEncoding.Encode(histogram))}\n"));
    }

    /// <summary>What <see cref="Merge"/> read from a set of logs.</summary>
    public sealed record Merged(LatencyHistogram Histogram, int Files, int Intervals, DateTimeOffset? Start, DateTimeOffset? End);

    /// <summary>Adds every interval of every log into one histogram; a usage error names the file and line it cannot read.</summary>
    public static Merged Merge(IReadOnlyList<string> paths)
    {
        ArgumentNullException.ThrowIfNull(paths);
        var total = new LatencyHistogram();
        var intervals = 0;
        DateTimeOffset? first = null, last = null;
        foreach (var path in paths)
        {
            var lines = InputFile.ReadText(path, "load merge:", InputLimit.IntervalLog).ReplaceLineEndings("\n").Split('\n');
            var startTime = DateTimeOffset.UnixEpoch;
            var sawLegend = false;
            for (var i = 0; i < lines.Length; i++)
            {
                var line = lines[i].Trim();
                if (line.StartsWith("#[StartTime:", StringComparison.Ordinal) || line.StartsWith("#[BaseTime:", StringComparison.Ordinal))
                {
                    var number = line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim().Split(' ')[0];
                    if (line.StartsWith("#[StartTime:", StringComparison.Ordinal) && double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds))
                    {
                        startTime = At(DateTimeOffset.UnixEpoch, seconds, $"{path}:{i + 1}: StartTime");
                    }
                    continue;
                }
                if (line.Length == 0 || line.StartsWith('#'))
                {
                    continue;
                }
                if (line.StartsWith("\"StartTimestamp\"", StringComparison.Ordinal))
                {
                    sawLegend = true;
                    continue;
                }
                var (start, length) = Interval(line, total, $"{path}:{i + 1}");
                // Relative timestamps (all tplab and jHiccup write) count from StartTime; absolute ones are epoch seconds.
                var at = $"{path}:{i + 1}";
                var from = start < 365 * 24 * 3600.0 ? At(startTime, start, at) : At(DateTimeOffset.UnixEpoch, start, at);
                first = first is null || from < first ? from : first;
                var to = At(from, length, at);
                last = last is null || to > last ? to : last;
                intervals++;
            }
            if (!sawLegend)
            {
                throw TplabException.Usage($"{path} is not an HdrHistogram log (no \"StartTimestamp\",... legend line)");
            }
        }
        return new Merged(total, paths.Count, intervals, first, last);
    }

    // Base64 of the largest encoding the decoder inflates: compressing never grows it by more than a few percent.
    private static readonly int MaxBase64Length = 2 * 4 * ((HistogramEncoding.MaxPlainLength + 2) / 3);

    // A time the log states (StartTime, an interval's start or length, in seconds): finite, not negative, and a date.
    private static DateTimeOffset At(DateTimeOffset from, double seconds, string at)
    {
        if (!double.IsFinite(seconds) || seconds < 0 || seconds > (DateTimeOffset.MaxValue - from).TotalSeconds - 1)
        {
            throw TplabException.Usage($"{at}: a time of {seconds.ToString(CultureInfo.InvariantCulture)} s (negative, not a number, or past the year 9999)");
        }
        return from.AddSeconds(seconds);
    }

    private static (double Start, double Length) Interval(string line, LatencyHistogram into, string at)
    {
        // An optional "Tag=name," comes first (log format 1.3).
        var fields = line.StartsWith("Tag=", StringComparison.Ordinal) ? line[(line.IndexOf(',', StringComparison.Ordinal) + 1)..].Split(',') : line.Split(',');
        if (fields.Length != 4
            || !double.TryParse(fields[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var start)
            || !double.TryParse(fields[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var length))
        {
            throw TplabException.Usage($"{at}: expected 'start,length,max,histogram'");
        }
        if (fields[3].Length > MaxBase64Length)
        {
            throw TplabException.Usage($"{at}: the histogram is longer than any tplab or HdrHistogram writes ({fields[3].Length} characters)");
        }
        try
        {
            HistogramEncoding.DecodeInto(Convert.FromBase64String(fields[3]), into);
        }
        catch (FormatException e)
        {
            throw TplabException.Usage($"{at}: {e.Message}");
        }
        return (start, length);
    }
}
