using Tplab.Load.Engine;

namespace Tplab.Load.Summary;

/// <summary>
/// Where the requests' time went, over the requests whose response carried the app's <c>Server-Timing: handler</c>
/// stamp: waiting for a pool thread (from the send to the handler's start), running the handler, and the rest
/// (connection, transfer, and in open loop any lateness of the send). For each request the three parts add up to its
/// latency, so their means add up to <see cref="LatencyMs"/>'s mean.
/// </summary>
public sealed record HandlerTiming(long Requests, LatencyStats LatencyMs, LatencyStats WaitedForThreadMs, LatencyStats HandlerMs, LatencyStats RestMs);

/// <summary>Accumulates <see cref="HandlerTiming"/> one record at a time.</summary>
internal sealed class HandlerTimingAccumulator
{
    private readonly LatencyAccumulator _latency = new(), _waited = new(), _handler = new(), _rest = new();
    private long _requests;

    public void Add(in RequestRecord record)
    {
        if (record.WaitedForThread is not { } waited || record.HandlerTime is not { } handler)
        {
            return;
        }
        // Two clocks of one machine can disagree by microseconds: keep each part within the latency, so the parts
        // are never negative and always sum to it.
        var latency = record.Latency;
        var w = Clamp(waited, latency);
        var h = Clamp(handler, latency - w);
        _requests++;
        _latency.Add(latency);
        _waited.Add(w);
        _handler.Add(h);
        _rest.Add(latency - w - h);
    }

    /// <summary>The split, or null when no response carried the stamp.</summary>
    public HandlerTiming? Complete() => _requests == 0 ? null
        : new HandlerTiming(_requests, _latency.Complete(), _waited.Complete(), _handler.Complete(), _rest.Complete());

    private static TimeSpan Clamp(TimeSpan value, TimeSpan max) =>
        value < TimeSpan.Zero ? TimeSpan.Zero : value > max ? (max < TimeSpan.Zero ? TimeSpan.Zero : max) : value;
}
