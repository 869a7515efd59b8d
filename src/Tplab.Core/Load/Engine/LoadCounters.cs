namespace Tplab.Load.Engine;

/// <summary>Live counts shared by the senders and the progress view; updated with interlocked operations.</summary>
public sealed class LoadCounters
{
    private long _sent;
    private long _done;
    private long _errors;

    /// <summary>Requests that have left.</summary>
    public long Sent => Interlocked.Read(ref _sent);

    /// <summary>Requests that ended (any outcome).</summary>
    public long Done => Interlocked.Read(ref _done);

    /// <summary>Requests that ended without success.</summary>
    public long Errors => Interlocked.Read(ref _errors);

    /// <summary>Requests sent and not yet ended.</summary>
    public long InFlight => Sent - Done;

    /// <summary>
    /// Open loop: hits that were due but had not left when sending stopped (every <c>--max-in-flight</c> slot still
    /// taken, or the pacer behind). Set once, when the pacer ends.
    /// </summary>
    public long Unsent { get; internal set; }

    internal void OnSent() => Interlocked.Increment(ref _sent);

    internal void OnDone(in RequestRecord record)
    {
        if (!record.Succeeded)
        {
            Interlocked.Increment(ref _errors);
        }
        Interlocked.Increment(ref _done);
    }
}
