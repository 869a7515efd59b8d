using Tplab.Load.Engine.Http1;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// One TCP connection of an event loop and the request on it (at most one: no pipelining). Owned by one loop thread,
/// so nothing here is synchronised. The object outlives its socket: when the server closes, the next request reconnects.
/// </summary>
internal sealed class Connection(int id)
{
    /// <summary>Index in the loop's table; the low half of the epoll tag.</summary>
    public int Id { get; } = id;

    /// <summary>Bumped for every new socket, the high half of the epoll tag: an event for a socket closed earlier in the same batch is dropped.</summary>
    public uint Generation { get; private set; }

    public int Fd { get; private set; } = -1;

    public bool Connecting { get; set; }

    /// <summary>Waiting for room in the send buffer (a large body).</summary>
    public bool WantWrite { get; set; }

    /// <summary>A request has already been answered on this socket (a failure before any byte may be a keep-alive close: resend once).</summary>
    public bool Reused { get; set; }

    public SendOperation? Op { get; set; }

    public RequestBytes? Request { get; set; }

    public int SendOffset { get; set; }

    /// <summary>When the request times out, on the run's clock.</summary>
    public TimeSpan Deadline { get; set; }

    public ResponseParser Parser { get; } = new();

    public ulong Tag => ((ulong)Generation << 32) | (uint)Id;

    public void Opened(int fd)
    {
        Fd = fd;
        Generation++;
        Reused = false;
        WantWrite = false;
    }

    public void Closed()
    {
        Fd = -1;
        Connecting = false;
        WantWrite = false;
        Reused = false;
    }
}
