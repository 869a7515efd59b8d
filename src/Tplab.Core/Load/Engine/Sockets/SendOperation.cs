using System.Threading.Tasks.Sources;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// One request on its way through an event loop, and the awaitable the loops wait on. Pooled: after the awaiter
/// reads the record it goes back to its sender, so a steady load allocates nothing per request. Continuations run
/// inline on the event loop (a closed-loop user's next send leaves from the same thread with no hop).
/// </summary>
internal sealed class SendOperation(SocketSender owner) : IValueTaskSource<RequestRecord>
{
    private ManualResetValueTaskSourceCore<RequestRecord> _core = new() { RunContinuationsAsynchronously = false };

    public TimeSpan Scheduled { get; set; }

    public TimeSpan Start { get; set; }

    public TimeSpan FirstByte { get; set; }

    public int User { get; set; }

    public int Target { get; set; }

    /// <summary>Already resent once on a fresh connection after a reused one failed before any response byte.</summary>
    public bool Retried { get; set; }

    public ValueTask<RequestRecord> Task => new(this, _core.Version);

    public void Complete(in RequestRecord record) => _core.SetResult(record);

    public RequestRecord GetResult(short token)
    {
        var record = _core.GetResult(token);
        _core.Reset();
        owner.Return(this);
        return record;
    }

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
