using System.Globalization;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>The lines of the live view for one moment, verdict first; pure, so the view is tested line by line.</summary>
public static class LiveFrame
{
    /// <summary>The frame for <paramref name="sample"/>, given the injections so far and the first sample.</summary>
    public static IReadOnlyList<string> Lines(string title, ThreadPoolSample sample, IReadOnlyList<ThreadPoolInjection> injections, ThreadPoolSample first, int threadsPeak, long queuePeak)
    {
        var byReason = injections.GroupBy(i => i.ReasonName).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        int Count(InjectionReason r) => byReason.GetValueOrDefault(r.ToString());
        var hillClimbing = injections.Count(i => i.Reason is >= InjectionReason.Warmup and <= InjectionReason.Stabilizing);
        var lines = new List<string>
        {
            $"{title}, at {S(sample.Offset.TotalSeconds)}",
            $"{sample.Verdict.ToWord().ToUpperInvariant()}: {sample.Evidence}",
            Row("pool threads", I(sample.ThreadCount), $"start {I(first.ThreadCount)}, peak {I(threadsPeak)}"),
            Row("queue length", I(sample.QueueLength), $"peak {I(queuePeak)}"),
            Row("completed/s", F(sample.CompletedPerSecond), null),
            Row("OS threads", I(sample.OsThreads), null),
            Row("CPU", F(sample.CpuPercent) + "%", "of all cores"),
            Row("lock contentions/s", F(sample.ContentionsPerSecond), null),
            Row("delay (measured)", MeasuredDelay(sample), MeasuredNote(sample)),
            Row("delay (estimate)", Ms(sample.EstimatedDelayMs), "queue ÷ completed/s"),
            Row("injections", I(injections.Count),
                $"Starvation {I(Count(InjectionReason.Starvation))}, CooperativeBlocking {I(Count(InjectionReason.CooperativeBlocking))}, hill climbing {I(hillClimbing)}, ThreadTimedOut {I(Count(InjectionReason.ThreadTimedOut))}"),
        };
        if (injections.Count > 0)
        {
            var last = injections[^1];
            lines.Add(Row("last injection", $"→ {I(last.NewThreadCount)}", $"{last.ReasonName} at {S(last.Offset.TotalSeconds)}"));
        }
        if (sample.CountersAgeMs is null)
        {
            lines.Add("(waiting for the runtime's first counters)");
        }
        return lines;
    }

    /// <summary>The measured delay's p99 for a row, or what stands in for it.</summary>
    public static string MeasuredDelay(ThreadPoolSample sample) => sample.Delay switch
    {
        null => "off",
        { Count: 0, Waiting: > 0 } d => "≥ " + Ms(d.OldestWaitingMs),
        { Count: 0 } => "-",
        { } d => Ms(d.P99Ms),
    };

    /// <summary>A delay in milliseconds or seconds; ∞ for none (queued, nothing completing).</summary>
    public static string Ms(double? ms) => ms switch
    {
        null => "∞",
        >= 1000 => (ms.Value / 1000).ToString("0.0", CultureInfo.InvariantCulture) + " s",
        _ => ms.Value.ToString(ms.Value < 10 ? "0.00" : "0", CultureInfo.InvariantCulture) + " ms",
    };

    private static string? MeasuredNote(ThreadPoolSample sample) => sample.Delay switch
    {
        null => "events off in this interval",
        { } d => $"p99 of {I(d.Count)} waits, p50 {Ms(d.P50Ms)}; oldest still queued {Ms(d.OldestWaitingMs)}; {I(d.Unpaired)} unpaired",
    };

    private static string Row(string name, string value, string? note) =>
        $"  {name,-20}{value,10}" + (note is null ? "" : $"   ({note})");

    private static string I(long v) => v.ToString(CultureInfo.InvariantCulture);

    private static string F(double v) => v.ToString("0.0", CultureInfo.InvariantCulture);

    private static string S(double seconds) => seconds.ToString("0.0", CultureInfo.InvariantCulture) + " s";
}
