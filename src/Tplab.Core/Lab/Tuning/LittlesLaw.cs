using System.Globalization;
using Tplab.Blocking;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Tuning;

/// <summary>
/// The first guess at the minimum, from what the default run measured: by Little's law the pool threads busy at once
/// are the arrival rate times the time each request holds a thread. A request that blocks (diagnose named the call,
/// or the watch saw the pool starve) holds its thread for its whole handler time: the latency of a request sent alone
/// (<see cref="AloneProbe"/>). A request that does not block holds a thread only while it runs on the CPU: the
/// process's CPU time per request in the default run.
/// </summary>
public static class LittlesLaw
{
    /// <summary>The estimate for <paramref name="load"/> from the default run <paramref name="baseline"/>; null when it measured nothing.</summary>
    public static MinThreadsEstimate? Estimate(LoadProfile load, ScenarioResult baseline, double? aloneSeconds, int defaultMin, int maxThreads)
    {
        var c = CultureInfo.InvariantCulture;
        if (baseline.Load is not { Summary.Requests: > 0 } run || aloneSeconds is not double alone)
        {
            return null;
        }
        // Requests that queued far beyond their time alone waited for threads too, even when no sample caught the starving.
        var queued = run.Summary.LatencyMs.P99 > 2 * alone * 1000;
        var blocking = baseline.Culprits.Count > 0 || baseline.Timeline?.Verdict is PoolVerdict.Starving or PoolVerdict.Recovering || queued;
        double hold;
        string how;
        if (blocking)
        {
            hold = alone;
            var culprit = baseline.Culprits.Count > 0 ? $"it blocks in {baseline.Culprits[0].BlockingCall} ({baseline.Culprits[0].UserFrame})"
                : queued ? "requests of the default run queued far beyond their time alone" : "the pool starved, so it blocks";
            how = string.Create(c, $"each request holds a pool thread for its whole handler time because {culprit}: {hold:0.###} s, a request's latency alone (median of {AloneProbe.Requests} sent one at a time)");
        }
        else
        {
            hold = baseline.Cost?.CpuSeconds is double cpu ? cpu / run.Summary.Requests : alone;
            how = string.Create(c, $"no blocking was seen, so a request holds a thread only while it runs: {hold:0.####} s of CPU per request");
        }
        double arrival;
        string from;
        if (load.Model == LoadModel.Open)
        {
            arrival = load.Rate;
            from = string.Create(c, $"the open loop's rate, {arrival:0.##} req/s");
        }
        else
        {
            var think = (load.ThinkMin + load.ThinkMax).TotalSeconds / 2;
            arrival = alone + think > 0 ? load.Concurrency / (alone + think) : load.Concurrency;
            from = string.Create(c, $"{load.Concurrency} users each sending again {alone + think:0.###} s after its last request began (latency alone{(think > 0 ? " + mean think time" : "")}): {arrival:0.#} req/s");
        }
        var threads = (int)Math.Clamp(Math.Ceiling(arrival * hold - 1e-9), defaultMin + 1, maxThreads);
        return new MinThreadsEstimate(arrival, hold, threads,
            string.Create(c, $"arrival rate × hold time = {arrival:0.#} req/s × {hold:0.###} s = {arrival * hold:0.#} threads; arrival from {from}; {how}"));
    }
}
