namespace Tplab.Load.Engine;

/// <summary>
/// How requests are sent (never when): the seam between the loops' timing logic and the wire, as
/// <see cref="Pacing.IPacer"/> is the seam for the schedule. The loops ask for one request at a time and get its
/// record back; a sender never throws for a request that fails (refused, timed out, interrupted: an error in the record).
/// </summary>
public interface ISender : IDisposable
{
    /// <summary>Which engine this is, as reports name it: <c>sockets</c> or <c>httpclient</c>.</summary>
    string Engine { get; }

    /// <summary>The Server header of the first response (ab's "Server Software"), if any came.</summary>
    string? ServerSoftware { get; }

    /// <summary>
    /// How long before its scheduled time the open loop may hand a request over (zero, the default: at its time). A
    /// sender with a lead holds an early request and sends it when it is due itself, so the pacer can wake once for
    /// a batch instead of once per request, and the hand-over between threads falls outside the send lag.
    /// </summary>
    TimeSpan Lead => TimeSpan.Zero;

    /// <summary>
    /// Sends one request due at <paramref name="scheduled"/> for <paramref name="user"/> (closed loop: its index, which
    /// keeps its own connection; open loop: -1); <paramref name="abort"/> ends it as "interrupted".
    /// </summary>
    ValueTask<RequestRecord> SendAsync(TimeSpan scheduled, int user, CancellationToken abort);
}
