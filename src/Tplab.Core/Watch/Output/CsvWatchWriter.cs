using System.Globalization;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary><c>--format csv</c>: one row per sample (injections are events, not rows; see jsonl), invariant numbers.</summary>
public sealed class CsvWatchWriter(TextWriter writer) : IWatchSink
{
    /// <summary>The header row.</summary>
    public const string Header = "offset_s,threads,queue,completed_per_s,os_threads,cpu_percent,contentions_per_s,starvation_injections,cooperative_injections,verdict,evidence";

    private bool _headerWritten;
    private int _starvation;
    private int _cooperative;

    public void OnInjection(ThreadPoolInjection injection)
    {
        // Counted into the next row, so a row says how many injections of each kind came since the previous one.
        _starvation += injection.Reason == InjectionReason.Starvation ? 1 : 0;
        _cooperative += injection.Reason == InjectionReason.CooperativeBlocking ? 1 : 0;
    }

    public void OnSample(ThreadPoolSample s)
    {
        if (!_headerWritten)
        {
            writer.WriteLine(Header);
            _headerWritten = true;
        }
        writer.WriteLine(string.Join(',',
            F(s.Offset.TotalSeconds, "0.000"), I(s.ThreadCount), I(s.QueueLength), F(s.CompletedPerSecond, "0.0"), I(s.OsThreads),
            F(s.CpuPercent, "0.0"), F(s.ContentionsPerSecond, "0.0"), I(_starvation), I(_cooperative), s.Verdict.ToWord(), Quote(s.Evidence)));
        writer.Flush();
        _starvation = 0;
        _cooperative = 0;
    }

    public void OnCompleted(PoolTimeline timeline)
    {
        if (!_headerWritten)
        {
            writer.WriteLine(Header);
        }
        writer.Flush();
    }

    private static string F(double v, string format) => v.ToString(format, CultureInfo.InvariantCulture);

    private static string I(long v) => v.ToString(CultureInfo.InvariantCulture);

    private static string Quote(string text) => "\"" + text.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
