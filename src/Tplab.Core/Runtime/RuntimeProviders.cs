using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;

namespace Tplab.Runtime;

/// <summary>
/// The EventPipe providers tplab enables. EventCounters of the System.Runtime EventSource, not the System.Runtime
/// Meter: the counters exist from .NET Core 3.0 (the Meter instruments only from .NET 9), so any .NET 8+ process can
/// be watched, and since .NET Core 3.0 the runtime polls them on a dedicated thread that keeps reporting while the
/// pool starves (coreclr PR #25864).
/// </summary>
public static class RuntimeProviders
{
    /// <summary>The runtime's native events provider.</summary>
    public const string DotNetRuntime = "Microsoft-Windows-DotNETRuntime";

    /// <summary>The EventSource behind the runtime's EventCounters.</summary>
    public const string SystemRuntime = "System.Runtime";

    /// <summary>ThreadingKeyword: worker start/stop/wait, hill-climbing adjustments (event 55), min/max (event 59).</summary>
    public const long ThreadingKeyword = 0x10000;

    /// <summary>
    /// ContentionKeyword: ContentionStart (81) and ContentionStop (91, with DurationNs since .NET 8) around every
    /// contended <c>lock</c>/<c>Monitor.Enter</c> and <c>System.Threading.Lock</c>. Raised only when a thread has to wait,
    /// so the cost grows with the contention it measures, not with the traffic.
    /// </summary>
    public const long ContentionKeyword = 0x4000;

    /// <summary>
    /// The EventSource behind ThreadPoolEnqueueWork (30) and ThreadPoolDequeueWork (31): Verbose events under its
    /// ThreadPool keyword, one per work item queued and one per work item started, so their cost grows with the traffic.
    /// </summary>
    public const string FrameworkEventSource = "System.Diagnostics.Eventing.FrameworkEventSource";

    /// <summary>FrameworkEventSource's ThreadPool keyword (0x2): events 30 and 31.</summary>
    public const long ThreadPoolKeyword = 0x2;

    /// <summary>The System.Runtime counters at <paramref name="interval"/>.</summary>
    public static EventPipeProvider Counters(TimeSpan interval) => new(
        SystemRuntime,
        EventLevel.Informational,
        0,
        new Dictionary<string, string>
        {
            // The runtime parses this with float.TryParse in its own culture; "0.25" is read right in every culture
            // that uses '.' for decimals. Whole seconds are written without a decimal point to be safe everywhere.
            ["EventCounterIntervalSec"] = interval.TotalSeconds == Math.Floor(interval.TotalSeconds)
                ? ((long)interval.TotalSeconds).ToString(CultureInfo.InvariantCulture)
                : interval.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture),
        });

    /// <summary>The runtime's threading events at Informational level (event 55 and 59 are Informational).</summary>
    public static EventPipeProvider Threading() => new(DotNetRuntime, EventLevel.Informational, ThreadingKeyword);

    /// <summary>The threading events and the lock-contention events, at Informational level.</summary>
    public static EventPipeProvider ThreadingAndContention() => new(DotNetRuntime, EventLevel.Informational, ThreadingKeyword | ContentionKeyword);

    /// <summary>The work-item enqueue/dequeue events (30/31), alone: the scheduling delay's own session, switched on in windows.</summary>
    public static EventPipeProvider WorkItems() => new(FrameworkEventSource, EventLevel.Verbose, ThreadPoolKeyword);

    /// <summary>Everything <c>tplab watch</c> needs, in one session.</summary>
    public static IReadOnlyList<EventPipeProvider> ForWatch(TimeSpan interval) => [Counters(interval), ThreadingAndContention()];
}
