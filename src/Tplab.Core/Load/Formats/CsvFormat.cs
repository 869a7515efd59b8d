using System.Globalization;
using Tplab.Load.Engine;

namespace Tplab.Load.Formats;

/// <summary>
/// One row per request, in completion order. Columns use JMeter's JTL names where JMeter has the field
/// (timeStamp, elapsed, label, responseCode, success, failureMessage, bytes, sentBytes, Latency, threadName),
/// then tplab's own: offsets from the start in ms, and the latency counted from the scheduled send.
/// The label is the request template's (<c>METHOD /path</c> or its name); with one template, JMeter's "HTTP Request".
/// Rows are written one at a time, so <c>tplab load</c> streams them to the file as the run goes.
/// </summary>
public sealed class CsvFormat(IReadOnlyList<string>? labels = null) : IRecordFormat
{
    /// <summary>The header row.</summary>
    public const string Header = "timeStamp,elapsed,label,responseCode,success,failureMessage,bytes,sentBytes,Latency,threadName,scheduledMs,startMs,endMs,latencyFromScheduleMs,sendLagMs";

    private readonly string[] _labels = labels is { Count: > 1 } ? [.. labels.Select(Quote)] : ["HTTP Request"];

    /// <inheritdoc />
    public string Name => "csv";

    /// <inheritdoc />
    public bool MachineReadable => true;

    /// <inheritdoc />
    public string Description => "one row per request (JMeter JTL column names)";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".csv"];

    /// <summary>The same format with the templates' labels in the label column.</summary>
    public CsvFormat WithLabels(IReadOnlyList<string> labels) => new(labels);

    /// <inheritdoc />
    public IRecordWriter Open(TextWriter writer, DateTimeOffset startedAt)
    {
        WriteHeader(writer);
        return new RowWriter(this, writer, startedAt);
    }

    /// <summary>Writes every record at once (the lab's requests.csv).</summary>
    public void Write(IReadOnlyList<RequestRecord> records, DateTimeOffset startedAt, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(records);
        ArgumentNullException.ThrowIfNull(writer);
        WriteHeader(writer);
        foreach (var r in records)
        {
            WriteRow(r, startedAt, writer);
        }
    }

    /// <summary>The header line.</summary>
    public static void WriteHeader(TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(Header);
        writer.Write('\n');
    }

    /// <summary>One request's line.</summary>
    public void WriteRow(in RequestRecord r, DateTimeOffset startedAt, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        var start = startedAt.ToUnixTimeMilliseconds();
        writer.Write(string.Join(',',
            Num.F(start + (long)r.Start.TotalMilliseconds),
            Num.F((long)Math.Round(r.ServiceTime.TotalMilliseconds)),
            _labels.Length > 1 && r.Target < _labels.Length ? _labels[r.Target] : _labels[0],
            Num.F(r.Status),
            r.Succeeded ? "true" : "false",
            Quote(r.Error ?? (r.Succeeded ? "" : "HTTP " + r.Status.ToString(CultureInfo.InvariantCulture))),
            Num.F(r.BytesIn),
            Num.F(r.BytesOut),
            Num.F((long)Math.Round(r.Waiting.TotalMilliseconds)),
            r.User >= 0 ? "user " + r.User.ToString(CultureInfo.InvariantCulture) : "open",
            Ms(r.Scheduled),
            Ms(r.Start),
            Ms(r.End),
            Ms(r.Latency),
            Ms(r.SendLag)));
        writer.Write('\n');
    }

    private sealed class RowWriter(CsvFormat format, TextWriter writer, DateTimeOffset startedAt) : IRecordWriter
    {
        public void Write(in RequestRecord record) => format.WriteRow(record, startedAt, writer);

        public void Complete() => writer.Flush();
    }

    private static string Ms(TimeSpan t) => t.TotalMilliseconds.ToString("0.###", CultureInfo.InvariantCulture);

    // RFC 4180: quote a field holding a comma, quote or line break, doubling the quotes inside.
    private static string Quote(string field) =>
        field.AsSpan().IndexOfAny(",\"\n\r") < 0 ? field : "\"" + field.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
