using System.Globalization;
using System.Text.Json;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// The JSON form of each record, shared by the JSONL writer and anyone storing a timeline: one object per sample
/// (<c>"type":"sample"</c>), per injection (<c>"type":"injection"</c>) and one summary (<c>"type":"summary"</c>).
/// Written with Utf8JsonWriter, so numbers are invariant and strings escaped.
/// </summary>
public static class WatchJson
{
    /// <summary>One sample as a JSON object on one line.</summary>
    public static string Sample(ThreadPoolSample s) => Write(w =>
    {
        w.WriteString("type", "sample");
        w.WriteNumber("pid", s.ProcessId);
        w.WriteNumber("offsetSeconds", Round(s.Offset.TotalSeconds, 3));
        w.WriteNumber("threadCount", s.ThreadCount);
        w.WriteNumber("queueLength", s.QueueLength);
        w.WriteNumber("completedPerSecond", Round(s.CompletedPerSecond, 1));
        w.WriteNumber("osThreads", s.OsThreads);
        w.WriteNumber("cpuPercent", Round(s.CpuPercent, 1));
        w.WriteNumber("contentionsPerSecond", Round(s.ContentionsPerSecond, 1));
        w.WriteNumber("cores", Round(s.Cores, 2));
        NumberOrNull(w, "machineCpuPercent", s.MachineCpuPercent, 1);
        NumberOrNull(w, "lockWaiters", s.LockWaiters, 1);
        NumberOrNull(w, "runnableWorkers", s.RunnableWorkers, 1);
        NumberOrNull(w, "countersAgeMs", s.CountersAgeMs, 0);
        NumberOrNull(w, "estimatedDelayMs", s.EstimatedDelayMs, 2);
        if (s.Delay is { } d)
        {
            w.WriteStartObject("delay");
            w.WriteNumber("count", d.Count);
            w.WriteNumber("meanMs", Round(d.MeanMs, 3));
            w.WriteNumber("p50Ms", Round(d.P50Ms, 3));
            w.WriteNumber("p99Ms", Round(d.P99Ms, 3));
            w.WriteNumber("maxMs", Round(d.MaxMs, 3));
            w.WriteNumber("unpaired", d.Unpaired);
            w.WriteNumber("waiting", d.Waiting);
            w.WriteNumber("oldestWaitingMs", Round(d.OldestWaitingMs, 1));
            w.WriteNumber("coverageSeconds", Round(d.CoverageSeconds, 3));
            w.WriteEndObject();
        }
        else
        {
            w.WriteNull("delay");
        }
        w.WriteString("verdict", s.Verdict.ToWord());
        w.WriteString("evidence", s.Evidence);
    });

    /// <summary>One injection as a JSON object on one line.</summary>
    public static string Injection(ThreadPoolInjection i) => Write(w =>
    {
        w.WriteString("type", "injection");
        w.WriteNumber("pid", i.ProcessId);
        w.WriteNumber("offsetSeconds", Round(i.Offset.TotalSeconds, 3));
        w.WriteNumber("newThreadCount", i.NewThreadCount);
        w.WriteString("reason", i.ReasonName);
        w.WriteNumber("reasonCode", i.ReasonCode);
        w.WriteNumber("averageThroughput", Round(i.AverageThroughput, 1));
    });

    /// <summary>The summary of a timeline as a JSON object on one line.</summary>
    public static string Summary(PoolTimeline t) => Write(w =>
    {
        w.WriteString("type", "summary");
        w.WriteNumber("processId", t.ProcessId);
        w.WriteNumber("intervalSeconds", Round(t.Interval.TotalSeconds, 3));
        w.WriteNumber("durationSeconds", Round(t.Duration.TotalSeconds, 3));
        w.WriteNumber("samples", t.Samples.Count);
        w.WriteNumber("threadsStart", t.ThreadsStart);
        w.WriteNumber("threadsPeak", t.ThreadsPeak);
        w.WriteNumber("osThreadsPeak", t.OsThreadsPeak);
        w.WriteNumber("queuePeak", t.QueuePeak);
        w.WriteStartObject("injectionsByReason");
        foreach (var (reason, count) in t.InjectionsByReason)
        {
            w.WriteNumber(reason, count);
        }
        w.WriteEndObject();
        if (t.FirstStarving is { } first)
        {
            w.WriteNumber("firstStarvingSeconds", Round(first.TotalSeconds, 3));
        }
        if (t.Limits is { } l)
        {
            w.WriteNumber("minWorkerThreads", l.MinWorkerThreads);
            w.WriteNumber("maxWorkerThreads", l.MaxWorkerThreads);
        }
        w.WriteBoolean("processExited", t.ProcessExited);
        if (t.DelayNote is { } note)
        {
            w.WriteString("delayNote", note);
        }
        // No sample, no verdict: the word would claim what the watch never saw.
        if (t.HasVerdict)
        {
            w.WriteString("verdict", t.Verdict.ToWord());
        }
        else
        {
            w.WriteNull("verdict");
        }
        w.WriteString("evidence", t.Evidence);
    });

    private static void NumberOrNull(Utf8JsonWriter w, string name, double? value, int digits)
    {
        if (value is { } v)
        {
            w.WriteNumber(name, Round(v, digits));
        }
        else
        {
            w.WriteNull(name);
        }
    }

    private static double Round(double value, int digits) => double.IsFinite(value) ? Math.Round(value, digits, MidpointRounding.AwayFromZero) : 0;

    private static string Write(Action<Utf8JsonWriter> body)
    {
        using var stream = new MemoryStream();
        using (var w = new Utf8JsonWriter(stream, new JsonWriterOptions { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            w.WriteStartObject();
            body(w);
            w.WriteEndObject();
        }
        return System.Text.Encoding.UTF8.GetString(stream.ToArray());
    }
}
