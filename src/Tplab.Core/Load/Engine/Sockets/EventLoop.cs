using System.Collections.Concurrent;
using System.Runtime.InteropServices;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// One thread, one epoll set, many connections (wrk's design); what happens on each connection is
/// <see cref="ConnectionIo"/>'s. Requests from other threads arrive through a queue and an eventfd; requests made on
/// this thread (a closed-loop user's next request, continuing inline after its previous response) start at once.
/// Open-loop requests may arrive up to the sender's lead before they are due: the loop holds them and sends each at
/// its time itself, sleeping in epoll_pwait2 with a microsecond timeout and a small timer slack, so a request's send
/// lag is this one thread's and not a hand-over between two. Timeouts are checked every 20 ms.
/// </summary>
internal sealed class EventLoop : IDisposable
{
    private const int MaxEvents = 256;
    private const ulong WakeTag = ulong.MaxValue;
    private const int MaxInlineDepth = 16;
    private const int IdleWaitMs = 20;
    private const long TimerSlackNs = 10_000;
    private static readonly TimeSpan TimeoutCheckEvery = TimeSpan.FromMilliseconds(20);

    [ThreadStatic]
    private static EventLoop? t_current;

    private readonly SocketSender _sender;
    private readonly int _epoll;
    private readonly int _wake;
    private readonly Thread _thread;
    private readonly ConcurrentQueue<SendOperation> _queue = new();
    private readonly Queue<SendOperation> _held = new();
    private readonly ConnectionPool _connections = new();
    private readonly ConnectionIo _io;
    private readonly byte[] _events = GC.AllocateUninitializedArray<byte>(MaxEvents * Native.EpollEventSize, pinned: true);
    private readonly nint _eventsAddress;
    private int _sleeping;
    private int _depth;
    private volatile bool _stopping;
    private bool _closeOnExit;
    private TimeSpan _nextTimeoutCheck;

    public EventLoop(SocketSender sender, int index)
    {
        _sender = sender;
        _eventsAddress = Marshal.UnsafeAddrOfPinnedArrayElement(_events, 0);
        _epoll = Native.EpollCreate();
        _wake = Native.EventFd();
        Native.Control(_epoll, _wake, Native.EPOLLIN, WakeTag, modify: false);
        _io = new ConnectionIo(sender, _epoll, _connections);
        _thread = new Thread(Run) { IsBackground = true, Name = $"tplab sockets {index}" };
        _thread.Start();
    }

    /// <summary>Starts <paramref name="op"/> on this loop: at once when called on the loop's own thread, else through the queue.</summary>
    public void Post(SendOperation op)
    {
        if (t_current == this && _depth < MaxInlineDepth && _held.Count == 0)
        {
            // Inline: the usual case of a closed-loop user continuing after its response. The depth bound stops a
            // chain of requests that fail at once (a refused connect) from growing the stack without end.
            _depth++;
            Start(op);
            _depth--;
            return;
        }
        _queue.Enqueue(op);
        if (t_current == this)
        {
            return;
        }
        if (Interlocked.Exchange(ref _sleeping, 0) == 1)
        {
            Native.Signal(_wake);
        }
    }

    public void Wake() => Native.Signal(_wake);

    public void Dispose()
    {
        _stopping = true;
        if (t_current == this)
        {
            // Disposed by a continuation running inline on this loop: joining would wait for this very thread
            // forever. The loop ends when the continuation returns and closes its own descriptors then.
            _closeOnExit = true;
            return;
        }
        Native.Signal(_wake);
        _thread.Join();
        CloseDescriptors();
    }

    private void CloseDescriptors()
    {
        Native.Close(_wake);
        Native.Close(_epoll);
    }

    private void Run()
    {
        t_current = this;
        Native.SetTimerSlack(TimerSlackNs);
        var events = _events.AsSpan();
        while (!_stopping)
        {
            Interlocked.Exchange(ref _sleeping, 1);
            int n;
            if (!_queue.IsEmpty)
            {
                Volatile.Write(ref _sleeping, 0);
                n = Native.Wait(_epoll, _eventsAddress, MaxEvents, 0);
            }
            else if (_held.TryPeek(out var next))
            {
                var until = next.Scheduled - _sender.Now;
                n = until > TimeSpan.Zero ? Native.Wait(_epoll, _eventsAddress, MaxEvents, until) : Native.Wait(_epoll, _eventsAddress, MaxEvents, 0);
            }
            else
            {
                n = Native.Wait(_epoll, _eventsAddress, MaxEvents, IdleWaitMs);
            }
            Volatile.Write(ref _sleeping, 0);
            for (var i = 0; i < n; i++)
            {
                var tag = Native.DataAt(events, i);
                if (tag == WakeTag)
                {
                    Native.Drain(_wake);
                    continue;
                }
                var connection = _connections[(int)(uint)tag];
                if (connection.Generation == (uint)(tag >> 32) && connection.Fd >= 0)
                {
                    _io.OnEvent(connection, Native.EventsAt(events, i));
                }
                if ((i & 15) == 15)
                {
                    // A full batch of responses takes a millisecond or more: requests due meanwhile leave on time.
                    StartDue();
                }
            }
            while (_queue.TryDequeue(out var op))
            {
                _held.Enqueue(op);
            }
            StartDue();
            var now = _sender.Now;
            if (now >= _nextTimeoutCheck || _sender.Aborted)
            {
                _nextTimeoutCheck = now + TimeoutCheckEvery;
                ExpireRequests(now);
            }
        }
        Shutdown();
        if (_closeOnExit)
        {
            CloseDescriptors();
        }
    }

    // Requests leave in the order they came, each once it is due (a closed-loop request is due when it is posted).
    private void StartDue()
    {
        if (_held.Count == 0)
        {
            return;
        }
        var now = _sender.Now;
        while (_held.TryPeek(out var op) && (op.Scheduled <= now || _sender.Aborted))
        {
            _held.Dequeue();
            Start(op);
        }
    }

    private void Start(SendOperation op)
    {
        op.Start = _sender.Now;
        if (_sender.Aborted)
        {
            op.Complete(_sender.ErrorRecord(op, SocketSender.Interrupted));
            return;
        }
        var connection = _connections.Acquire(op.User);
        connection.Op = op;
        connection.Request = _sender.Request(op.Target);
        connection.Deadline = op.Start + _sender.Timeout;
        _io.Begin(connection);
    }

    private void ExpireRequests(TimeSpan now)
    {
        var aborted = _sender.Aborted;
        for (var i = 0; i < _connections.Count; i++)
        {
            var connection = _connections[i];
            if (connection.Op is not null && (aborted || now > connection.Deadline))
            {
                _io.Fail(connection, aborted ? SocketSender.Interrupted : _sender.TimeoutMessage);
            }
        }
    }

    private void Shutdown()
    {
        // By index: completing a request runs its continuation, which may open a connection and grow the table.
        for (var i = 0; i < _connections.Count; i++)
        {
            if (_connections[i].Op is not null)
            {
                _io.Fail(_connections[i], SocketSender.Interrupted);
            }
            ConnectionIo.CloseSocket(_connections[i]);
        }
        while (_held.TryDequeue(out var op) || _queue.TryDequeue(out op))
        {
            op.Complete(_sender.ErrorRecord(op, SocketSender.Interrupted));
        }
    }
}
