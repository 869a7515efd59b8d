namespace Tplab.Watch.Delay;

/// <summary>
/// How long work items waited in the pool's queue during one sample's interval, measured from the runtime's
/// enqueue/dequeue events (30/31): the scheduling delay itself, per work item, not a per-request figure.
/// </summary>
/// <param name="Count">Waits measured (paired enqueue → dequeue).</param>
/// <param name="MeanMs">Their mean, in milliseconds.</param>
/// <param name="P50Ms">Median wait (within 10%).</param>
/// <param name="P99Ms">99th-percentile wait (within 10%).</param>
/// <param name="MaxMs">Longest wait.</param>
/// <param name="Unpaired">Events that could not be paired in the interval (queued before the window opened, lost, or
/// still queued when the window closed): counted, never dropped silently.</param>
/// <param name="Waiting">Items queued and not yet started at the sample.</param>
/// <param name="OldestWaitingMs">How long the oldest of them has waited so far: a lower bound of a wait still going.</param>
/// <param name="CoverageSeconds">How much of the interval the events were switched on.</param>
public sealed record SchedulingDelay(
    long Count, double MeanMs, double P50Ms, double P99Ms, double MaxMs, long Unpaired, int Waiting, double OldestWaitingMs, double CoverageSeconds)
{
    /// <summary>The waits' buckets, for exporters' histograms; not written to files.</summary>
    public DelayDistribution Distribution { get; init; } = DelayDistribution.Empty;

    /// <summary>The figures of a pairing interval that was <paramref name="coverageSeconds"/> long.</summary>
    public static SchedulingDelay From(PairingInterval interval, double coverageSeconds)
    {
        ArgumentNullException.ThrowIfNull(interval);
        var w = interval.Waits;
        return new SchedulingDelay(w.Count, w.MeanMs, w.QuantileMs(0.5), w.QuantileMs(0.99), w.MaxMs, interval.Unpaired,
            interval.Queued, interval.OldestQueuedMs, coverageSeconds)
        {
            Distribution = w,
        };
    }
}

/// <summary>The cheap estimate of the scheduling delay that needs no events: the queue ÷ the completions per second.</summary>
public static class DelayEstimate
{
    /// <summary>
    /// Milliseconds an item joining the queue now would wait if the pool kept completing at its current rate; 0 with
    /// nothing queued; null when items are queued and none completed (no rate to divide by: unbounded).
    /// </summary>
    public static double? Milliseconds(long queueLength, double completedPerSecond) =>
        queueLength <= 0 ? 0 : completedPerSecond > 0 ? queueLength / completedPerSecond * 1000 : null;
}
