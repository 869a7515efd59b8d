using Microsoft.Diagnostics.Tracing;
using Tplab.Watch;
using Tplab.Runtime;
using Tplab.Watch.Sampling;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose.Offline;

/// <summary>
/// The thread pool as a trace collected elsewhere holds it: one sample per interval of the System.Runtime counters
/// (threads, queue, completed/s, CPU from <c>cpu-usage</c>), the injections (event 55) and min/max (event 59),
/// judged by the same verdict rule as a live watch. Null when the trace has no pool counters.
/// </summary>
internal static class PoolReplay
{
    private const string CpuUsage = "cpu-usage";

    public static PoolTimeline? Read(string nettracePath, VerdictThresholds thresholds)
    {
        var batches = new List<Dictionary<string, double>>();
        var batchTimes = new List<double>();
        var adjustments = new List<(double Ms, AdjustmentEvent Event)>();
        MinMaxEvent? limits = null;
        var pid = 0;
        using (var source = new EventPipeEventSource(nettracePath))
        {
            source.Dynamic.All += e =>
            {
                if (PoolEventDecoder.Counter(e, 0) is not { } c)
                {
                    return;
                }
                pid = e.ProcessID;
                // One interval's counters come together; a name already in the current batch starts the next one.
                if (batches.Count == 0 || batches[^1].ContainsKey(c.Name))
                {
                    batches.Add([]);
                    batchTimes.Add(e.TimeStampRelativeMSec);
                }
                batches[^1][c.Name] = c.Value;
            };
            source.Clr.ThreadPoolWorkerThreadAdjustmentAdjustment += e =>
            {
                if (PoolEventDecoder.Adjustment(e, 0) is { } a)
                {
                    adjustments.Add((e.TimeStampRelativeMSec, a));
                }
            };
            source.Clr.ThreadPoolMinMaxThreads += e => limits = PoolEventDecoder.MinMax(e, 0) ?? limits;
            source.Process();
        }
        var pool = batches.Select((b, i) => (b, i)).Where(x => x.b.ContainsKey(PoolCounters.QueueLength)).ToList();
        if (pool.Count == 0)
        {
            return null;
        }
        var interval = pool.Count > 1 ? TimeSpan.FromMilliseconds((batchTimes[pool[^1].i] - batchTimes[pool[0].i]) / (pool.Count - 1)) : TimeSpan.FromSeconds(1);
        var injections = adjustments.Select(a => new ThreadPoolInjection(
            TimeSpan.FromMilliseconds(a.Ms), a.Event.NewWorkerThreadCount, InjectionReasons.FromCode(a.Event.ReasonCode), a.Event.ReasonCode, a.Event.AverageThroughput)).ToList();
        var samples = new List<ThreadPoolSample>();
        TimeSpan? lastStarving = null;
        foreach (var (values, index) in pool)
        {
            var offset = TimeSpan.FromMilliseconds(batchTimes[index]);
            double Get(string name) => values.TryGetValue(name, out var v) ? v : 0;
            var reading = new PoolReading(offset, (int)Math.Round(Get(PoolCounters.ThreadCount)), (long)Math.Round(Get(PoolCounters.QueueLength)), Get(PoolCounters.Completed), Get(CpuUsage));
            var from = offset - thresholds.Lookback;
            var window = new VerdictWindow(
                reading,
                samples.Where(s => s.Offset >= from).Select(s => s.Reading).ToList(),
                injections.Where(i => i.Offset >= from && i.Offset <= offset).ToList(),
                lastStarving is { } last ? offset - last : null);
            var verdict = VerdictRule.Judge(window, thresholds);
            lastStarving = verdict.Verdict.ThreadsHeld() ? offset : lastStarving;
            // The trace holds no OS thread count (that is /proc, live only): 0 here.
            samples.Add(new ThreadPoolSample(offset, reading.ThreadCount, reading.QueueLength, reading.CompletedPerSecond, 0, reading.CpuPercent,
                Get(PoolCounters.Contentions), 0, verdict.Verdict, verdict.Evidence));
        }
        var duration = samples[^1].Offset - samples[0].Offset + interval;
        return new PoolTimeline(pid, interval, duration, samples, injections, limits, processExited: false);
    }
}
