using System.Diagnostics;
using System.Globalization;
using Microsoft.Diagnostics.Tracing;

namespace Tplab.Runtime;

/// <summary>
/// Turns TraceEvent's events into tplab's records. Reads payload fields by name and the Reason as a raw integer,
/// so a parser that does not name a code (8 = CooperativeBlocking in older TraceEvent) loses nothing.
/// </summary>
public static class PoolEventDecoder
{
    /// <summary>Event 55.</summary>
    public const int AdjustmentEventId = 55;

    /// <summary>Event 59.</summary>
    public const int MinMaxEventId = 59;

    /// <summary>ContentionStart.</summary>
    public const int ContentionStartEventId = 81;

    /// <summary>ContentionStop.</summary>
    public const int ContentionStopEventId = 91;

    /// <summary>ThreadPoolEnqueueWork of the FrameworkEventSource.</summary>
    public const int EnqueueWorkEventId = 30;

    /// <summary>ThreadPoolDequeueWork of the FrameworkEventSource.</summary>
    public const int DequeueWorkEventId = 31;

    /// <summary>Event 30 or 31 of the FrameworkEventSource: a work item queued or started; null for any other event.</summary>
    public static WorkItemEvent? WorkItem(TraceEvent data)
    {
        var id = (int)data.ID;
        // By name: EventPipe carries the provider's name, not the GUID the EventSource declares.
        if ((id != EnqueueWorkEventId && id != DequeueWorkEventId) || !string.Equals(data.ProviderName, RuntimeProviders.FrameworkEventSource, StringComparison.Ordinal))
        {
            return null;
        }
        return data.PayloadValue(0) switch
        {
            long work => new WorkItemEvent(data.TimeStampRelativeMSec, work, id == EnqueueWorkEventId),
            int work => new WorkItemEvent(data.TimeStampRelativeMSec, work, id == EnqueueWorkEventId),
            _ => null,
        };
    }

    /// <summary>Event 81 or 91: which thread began or ended a wait for a lock.</summary>
    public static ContentionEvent? Contention(TraceEvent data, long timestamp) => (int)data.ID switch
    {
        ContentionStartEventId => new ContentionEvent(timestamp, data.ThreadID, Started: true),
        ContentionStopEventId => new ContentionEvent(timestamp, data.ThreadID, Started: false),
        _ => null,
    };

    /// <summary>The counter values in an "EventCounters" event, or nothing for any other event.</summary>
    public static CounterValue? Counter(TraceEvent data, long arrival)
    {
        if (data.EventName != "EventCounters" || data.PayloadValue(0) is not IDictionary<string, object> outer
            || !outer.TryGetValue("Payload", out var inner) || inner is not IDictionary<string, object> fields
            || !fields.TryGetValue("Name", out var name) || name is not string counter)
        {
            return null;
        }
        return Counter(counter, fields, arrival);
    }

    /// <summary>
    /// A counter from its payload fields: polling counters carry Mean; incrementing ones carry Increment, the raw
    /// change over IntervalSec, turned here into a per-second rate whatever interval the runtime actually used.
    /// </summary>
    public static CounterValue? Counter(string name, IDictionary<string, object> fields, long arrival)
    {
        if (fields.TryGetValue("CounterType", out var type) && "Sum".Equals(type as string, StringComparison.Ordinal))
        {
            var increment = ToDouble(fields.TryGetValue("Increment", out var i) ? i : null);
            var seconds = ToDouble(fields.TryGetValue("IntervalSec", out var s) ? s : null);
            return increment is { } inc && seconds is > 0 ? new CounterValue(name, inc / seconds.Value, arrival) { Increment = inc } : null;
        }
        return ToDouble(fields.TryGetValue("Mean", out var mean) ? mean : null) is { } m ? new CounterValue(name, m, arrival) : null;
    }

    /// <summary>Event 55 from its payload, Reason read as the raw integer.</summary>
    public static AdjustmentEvent? Adjustment(TraceEvent data, long timestamp)
    {
        if ((int)data.ID != AdjustmentEventId)
        {
            return null;
        }
        var reason = ToDouble(data.PayloadByName("Reason"));
        var count = ToDouble(data.PayloadByName("NewWorkerThreadCount"));
        var throughput = ToDouble(data.PayloadByName("AverageThroughput"));
        return reason is null || count is null ? null : new AdjustmentEvent(timestamp, throughput ?? 0, (int)count.Value, (long)reason.Value);
    }

    /// <summary>Event 59 from its payload.</summary>
    public static MinMaxEvent? MinMax(TraceEvent data, long timestamp)
    {
        if ((int)data.ID != MinMaxEventId)
        {
            return null;
        }
        int Field(string n) => (int)(ToDouble(data.PayloadByName(n)) ?? 0);
        return new MinMaxEvent(timestamp, Field("MinWorkerThreads"), Field("MaxWorkerThreads"), Field("MinIOCompletionThreads"), Field("MaxIOCompletionThreads"));
    }

    /// <summary>
    /// When the target emitted <paramref name="data"/>, as a Stopwatch timestamp here. On Linux the runtime stamps
    /// events with CLOCK_MONOTONIC in nanoseconds and Stopwatch reads the same clock, so the raw value is comparable
    /// with ours. TraceEvent does not expose the trace's clock frequency, so the value is checked instead: if it is
    /// not a moment in the last 10 s before arrival (another clock, a router), the arrival time is used.
    /// </summary>
    public static long EmittedAt(TraceEvent data, long arrival)
    {
#pragma warning disable CS0618 // "Not obsolete but discouraged": the raw clock value is exactly what is wanted here.
        var emitted = data.TimeStampQPC;
#pragma warning restore CS0618
        return Plausible(emitted, arrival) ? emitted : arrival;
    }

    /// <summary>Whether an emitted timestamp lies within the 10 s before its arrival.</summary>
    public static bool Plausible(long emitted, long arrival)
    {
        var lag = arrival - emitted;
        return lag >= 0 && lag < Stopwatch.Frequency * 10;
    }

    private static double? ToDouble(object? value) => value switch
    {
        null => null,
        string s => double.TryParse(s, NumberStyles.Float, CultureInfo.InvariantCulture, out var d) ? d : null,
        IConvertible c => c.ToDouble(CultureInfo.InvariantCulture),
        _ => null,
    };
}
