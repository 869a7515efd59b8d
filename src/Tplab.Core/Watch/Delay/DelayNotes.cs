using System.Globalization;

namespace Tplab.Watch.Delay;

/// <summary>The one line a watch says when its scheduling delay is missing, and why.</summary>
internal static class DelayNotes
{
    /// <summary>The note for a finished watch; null when the delay was measured (or there was nothing to measure).</summary>
    public static string? For(DelayOptions options, DelayMeasurement? measurement, IReadOnlyList<ThreadPoolSample> samples)
    {
        if (options.Mode == DelayMode.Off || measurement is null)
        {
            return "scheduling delay not measured (--delay off): only the estimate, queue ÷ completions per second";
        }
        if (measurement.Problem is { } problem)
        {
            return $"scheduling delay not measured: the work-item events' session failed ({problem})";
        }
        var completed = samples.Sum(s => s.CompletedPerSecond);
        if (measurement.Events == 0 && completed > 0 && samples.Any(s => s.Delay is { CoverageSeconds: > 0 }))
        {
            return string.Create(CultureInfo.InvariantCulture,
                $"scheduling delay not measured: the runtime sent no ThreadPoolEnqueueWork/DequeueWork events (System.Diagnostics.Eventing.FrameworkEventSource 30/31, Verbose, keyword 0x2) while it completed work items; only the estimate is shown");
        }
        return null;
    }
}
