using Tplab.Load.Engine;
using Tplab.Load.Histograms;

namespace Tplab.Load.Formats;

/// <summary>
/// HdrHistogram's interval log of latency (from the scheduled send, in µs): one interval a second, by the time each
/// request ended, so logs from several generators merge exactly (<c>tplab load merge</c>, or HdrHistogram's own tools).
/// Written as the run goes, one line a second; an interval with no request is written empty, so gaps show.
/// </summary>
public sealed class HlogFormat : IRecordFormat
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    /// <inheritdoc />
    public string Name => "hlog";

    /// <inheritdoc />
    public bool MachineReadable => true;

    /// <inheritdoc />
    public string Description => "HdrHistogram interval log of latency (µs), one interval a second";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".hlog"];

    /// <inheritdoc />
    public IRecordWriter Open(TextWriter writer, DateTimeOffset startedAt)
    {
        ArgumentNullException.ThrowIfNull(writer);
        HistogramLog.WriteHeader(writer, startedAt, "Logged by tplab load: latency from the scheduled send, microseconds");
        return new IntervalWriter(writer);
    }

    private sealed class IntervalWriter(TextWriter writer) : IRecordWriter
    {
        private readonly LatencyHistogram _histogram = new();
        private TimeSpan _start;
        private TimeSpan _lastEnd;

        public void Write(in RequestRecord record)
        {
            while (record.End >= _start + Interval)
            {
                Flush(Interval);
            }
            _histogram.Record((long)Math.Round(Math.Max(0, record.Latency.TotalMilliseconds) * 1000));
            _lastEnd = record.End > _lastEnd ? record.End : _lastEnd;
        }

        public void Complete()
        {
            if (_histogram.TotalCount > 0)
            {
                Flush(_lastEnd > _start ? _lastEnd - _start : TimeSpan.Zero);
            }
            writer.Flush();
        }

        private void Flush(TimeSpan length)
        {
            HistogramLog.WriteInterval(writer, _start, length, _histogram);
            _histogram.Clear();
            _start += Interval;
        }
    }
}
