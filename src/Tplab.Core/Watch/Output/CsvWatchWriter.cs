using System.Globalization;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary><c>--format csv</c>: one row per sample (injections are events, not rows; see jsonl), invariant numbers.</summary>
public sealed class CsvWatchWriter(TextWriter writer) : IWatchSink
{
    /// <summary>The header row.</summary>
    public const string Header = "pid,offset_s,threads,queue,completed_per_s,os_threads,cpu_percent,contentions_per_s,starvation_injections,cooperative_injections,delay_p50_ms,delay_p99_ms,delay_max_ms,delay_waits,delay_unpaired,oldest_waiting_ms,delay_estimate_ms,verdict,evidence";

    private bool _headerWritten;
    private readonly Dictionary<int, (int Starvation, int Cooperative)> _injections = [];

    public void OnInjection(ThreadPoolInjection injection)
    {
        // Counted into the process's next row, so a row says how many injections of each kind came since its previous one.
        var (starvation, cooperative) = _injections.GetValueOrDefault(injection.ProcessId);
        _injections[injection.ProcessId] = (starvation + (injection.Reason == InjectionReason.Starvation ? 1 : 0),
            cooperative + (injection.Reason == InjectionReason.CooperativeBlocking ? 1 : 0));
    }

    public void OnSample(ThreadPoolSample s)
    {
        if (!_headerWritten)
        {
            writer.WriteLine(Header);
            _headerWritten = true;
        }
        var (starvation, cooperative) = _injections.GetValueOrDefault(s.ProcessId);
        var d = s.Delay;
        // An empty cell: not measured in this interval (the events were off), or no estimate (nothing completed).
        writer.WriteLine(string.Join(',',
            I(s.ProcessId), F(s.Offset.TotalSeconds, "0.000"), I(s.ThreadCount), I(s.QueueLength), F(s.CompletedPerSecond, "0.0"), I(s.OsThreads),
            F(s.CpuPercent, "0.0"), F(s.ContentionsPerSecond, "0.0"), I(starvation), I(cooperative),
            d is null ? "" : F(d.P50Ms, "0.000"), d is null ? "" : F(d.P99Ms, "0.000"), d is null ? "" : F(d.MaxMs, "0.000"),
            d is null ? "" : I(d.Count), d is null ? "" : I(d.Unpaired), d is null ? "" : F(d.OldestWaitingMs, "0.0"),
            s.EstimatedDelayMs is { } e ? F(e, "0.000") : "", s.Verdict.ToWord(), Quote(s.Evidence)));
        writer.Flush();
        _injections.Remove(s.ProcessId);
    }

    public void OnCompleted(PoolTimeline timeline)
    {
        if (!_headerWritten)
        {
            writer.WriteLine(Header);
            _headerWritten = true;
        }
        writer.Flush();
    }

    private static string F(double v, string format) => v.ToString(format, CultureInfo.InvariantCulture);

    private static string I(long v) => v.ToString(CultureInfo.InvariantCulture);

    private static string Quote(string text) => "\"" + text.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
