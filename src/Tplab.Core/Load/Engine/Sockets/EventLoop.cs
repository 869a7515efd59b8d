using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// One thread, one epoll set, many connections (wrk's design); what happens on each connection is
/// <see cref="ConnectionIo"/>'s. Requests from other threads arrive through a queue and an eventfd; requests made on
/// this thread (a closed-loop user's next request, continuing inline after its previous response) leave at the end of
/// the turn (<see cref="Post"/>).
/// Open-loop requests may arrive up to the sender's lead before they are due: the loop holds them and sends each at
/// its time itself, sleeping in epoll_pwait2 with a microsecond timeout and a small timer slack, so a request's send
/// lag is this one thread's and not a hand-over between two. Timeouts are checked every 20 ms.
/// </summary>
internal sealed class EventLoop : IDisposable
{
    private const int MaxEvents = 256;
    private const ulong WakeTag = ulong.MaxValue;
    private const int IdleWaitMs = 20;
    private const long TimerSlackNs = 10_000;

    // Connects one loop leaves unanswered at once. An open-loop request that finds no idle connection opens one, but
    // not past this: it then waits for the first connection that frees up or connects. A server that falls behind
    // for a moment (a cold start, a pause) otherwise meets a new connection for every request due meanwhile,
    // thousands a second, overflows its accept queue, and its clients' SYNs retry after a second; it never catches
    // up, and the run ends at the open-file limit. Loopback answers a connect within microseconds, so the cap holds
    // nothing back until a server stops accepting.
    private const int MaxConnecting = 32;
    private static readonly TimeSpan TimeoutCheckEvery = TimeSpan.FromMilliseconds(20);

    [ThreadStatic]
    private static EventLoop? t_current;

    private readonly SocketSender _sender;
    private readonly int _epoll;
    private readonly int _wake;
    private readonly Thread _thread;
    private readonly ConcurrentQueue<SendOperation> _queue = new();
    private readonly Queue<SendOperation> _held = new();
    private readonly Queue<SendOperation> _ready = new();
    private readonly Queue<SendOperation> _awaitingConnection = new();
    private readonly ConnectionPool _connections = new();
    private readonly ConnectionIo _io;
    private readonly byte[] _events = GC.AllocateUninitializedArray<byte>(MaxEvents * Native.EpollEventSize, pinned: true);
    private readonly nint _eventsAddress;
    private int _sleeping;
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

    /// <summary>
    /// Starts <paramref name="op"/> on this loop. Posted on the loop's own thread (a closed-loop user continuing after
    /// its response), it leaves with the turn's other requests once the batch of events is read, as wrk's writes wait
    /// for its next epoll_wait: the server then wakes once for the burst rather than once per request. From another
    /// thread it comes through the queue and wakes the loop.
    /// </summary>
    public void Post(SendOperation op)
    {
        if (t_current == this)
        {
            _ready.Enqueue(op);
            return;
        }
        _queue.Enqueue(op);
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

    // Entered once and left at the end of the load: precompiled (ReadyToRun) code would run it to the end, since
    // tiering replaces a method at its next call; this makes the JIT compile it fully optimized at the start instead.
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void Run()
    {
        t_current = this;
        Native.SetTimerSlack(TimerSlackNs);
        var events = _events.AsSpan();
        while (!_stopping)
        {
            Interlocked.Exchange(ref _sleeping, 1);
            int n;
            if (!_queue.IsEmpty || _ready.Count > 0 || CanConnectAwaiting())
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
                    StartAwaiting();
                    StartDue();
                }
            }
            StartAwaiting();
            StartReady();
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

    // The requests of the batch just handled, in the order they came. One that fails at once (a refused connect) posts
    // its user's next request behind them: that one waits for the next turn, so such a chain never holds the loop.
    private void StartReady()
    {
        for (var count = _ready.Count; count > 0; count--)
        {
            Start(_ready.Dequeue());
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
        if (_sender.Aborted)
        {
            op.Start = _sender.Now;
            op.Complete(_sender.ErrorRecord(op, SocketSender.Interrupted));
            return;
        }
        if (op.User < 0 && (_awaitingConnection.Count > 0 || !CanConnect()))
        {
            // Behind the requests already waiting, in schedule order; its send lag will show the wait.
            _awaitingConnection.Enqueue(op);
            return;
        }
        Begin(op, _connections.Acquire(op.User));
    }

    private void Begin(SendOperation op, Connection connection)
    {
        op.Start = _sender.Now;
        if (op.User >= 0)
        {
            // Closed loop: a request is due when it leaves, and its latency starts there, as wrk's and ab's do.
            op.Scheduled = op.Start;
        }
        connection.Op = op;
        connection.Request = _sender.Request(op.Target);
        connection.Deadline = op.Start + _sender.Timeout;
        _io.Begin(connection);
    }

    private bool CanConnect() => _connections.HasIdle || _io.Connecting < MaxConnecting;

    private bool CanConnectAwaiting() => _awaitingConnection.Count > 0 && CanConnect();

    // Requests that found no connection, oldest first, each on the first one idle or while a connect may open.
    private void StartAwaiting()
    {
        while (_awaitingConnection.Count > 0 && CanConnect() && !_sender.Aborted)
        {
            var op = _awaitingConnection.Dequeue();
            Begin(op, _connections.Acquire(op.User));
        }
    }

    private void ExpireRequests(TimeSpan now)
    {
        var aborted = _sender.Aborted;
        // A request still waiting for a connection has not left: it times out counted from when it was due.
        while (_awaitingConnection.TryPeek(out var waiting) && (aborted || now > waiting.Scheduled + _sender.Timeout))
        {
            _awaitingConnection.Dequeue();
            waiting.Start = now;
            waiting.Complete(_sender.ErrorRecord(waiting, aborted ? SocketSender.Interrupted : _sender.TimeoutMessage));
        }
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
            _io.CloseSocket(_connections[i]);
        }
        while (_awaitingConnection.TryDequeue(out var op) || _ready.TryDequeue(out op) || _held.TryDequeue(out op) || _queue.TryDequeue(out op))
        {
            op.Start = _sender.Now;
            op.Complete(_sender.ErrorRecord(op, SocketSender.Interrupted));
        }
    }
}
