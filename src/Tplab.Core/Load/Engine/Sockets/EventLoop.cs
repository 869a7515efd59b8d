using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.InteropServices;
using Tplab.Load.Engine.Http1;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// One thread, one epoll set, many connections (wrk's design): a request is one send() on a ready connection, its
/// response one recv() per readiness event, parsed in place from one buffer shared by the loop. Requests from other
/// threads arrive through a queue and an eventfd; requests made on this thread (a closed-loop user's next request,
/// continuing inline after its previous response) start at once. Timeouts are checked every 20 ms.
/// </summary>
internal sealed class EventLoop : IDisposable
{
    private const int MaxEvents = 256;
    private const int ReceiveBufferSize = 64 * 1024;
    private const ulong WakeTag = ulong.MaxValue;
    private const int MaxInlineDepth = 16;
    private static readonly long TimeoutCheckEvery = Stopwatch.Frequency / 50;

    [ThreadStatic]
    private static EventLoop? t_current;

    private readonly SocketSender _sender;
    private readonly int _epoll;
    private readonly int _wake;
    private readonly Thread _thread;
    private readonly ConcurrentQueue<SendOperation> _queue = new();
    private readonly List<Connection> _connections = [];
    private readonly Stack<Connection> _idle = new();
    private readonly Dictionary<int, Connection> _users = [];
    private readonly byte[] _buffer = GC.AllocateUninitializedArray<byte>(ReceiveBufferSize, pinned: true);
    private readonly byte[] _events = GC.AllocateUninitializedArray<byte>(MaxEvents * Native.EpollEventSize, pinned: true);
    private readonly nint _bufferAddress;
    private readonly nint _eventsAddress;
    private int _sleeping;
    private int _depth;
    private volatile bool _stopping;
    private long _nextTimeoutCheck;

    public EventLoop(SocketSender sender, int index)
    {
        _sender = sender;
        _bufferAddress = Marshal.UnsafeAddrOfPinnedArrayElement(_buffer, 0);
        _eventsAddress = Marshal.UnsafeAddrOfPinnedArrayElement(_events, 0);
        _epoll = Native.EpollCreate();
        _wake = Native.EventFd();
        Native.Control(_epoll, _wake, Native.EPOLLIN, WakeTag, modify: false);
        _thread = new Thread(Run) { IsBackground = true, Name = $"tplab sockets {index}" };
        _thread.Start();
    }

    /// <summary>Starts <paramref name="op"/> on this loop: at once when called on the loop's own thread, else through the queue.</summary>
    public void Post(SendOperation op)
    {
        if (t_current == this && _depth < MaxInlineDepth)
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
        Native.Signal(_wake);
        _thread.Join();
        Native.Close(_wake);
        Native.Close(_epoll);
    }

    private void Run()
    {
        t_current = this;
        var events = _events.AsSpan();
        while (!_stopping)
        {
            Interlocked.Exchange(ref _sleeping, 1);
            var timeout = 20;
            if (!_queue.IsEmpty)
            {
                Volatile.Write(ref _sleeping, 0);
                timeout = 0;
            }
            var n = Native.Wait(_epoll, _eventsAddress, MaxEvents, timeout);
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
                    OnEvent(connection, Native.EventsAt(events, i));
                }
            }
            while (_queue.TryDequeue(out var op))
            {
                Start(op);
            }
            var now = Stopwatch.GetTimestamp();
            if (now >= _nextTimeoutCheck || _sender.Aborted)
            {
                _nextTimeoutCheck = now + TimeoutCheckEvery;
                ExpireRequests(now);
            }
        }
        // By index: completing a request runs its continuation, which may open a connection and grow the list.
        for (var i = 0; i < _connections.Count; i++)
        {
            if (_connections[i].Op is not null)
            {
                Fail(_connections[i], SocketSender.Interrupted);
            }
            CloseSocket(_connections[i]);
        }
        while (_queue.TryDequeue(out var op))
        {
            op.Complete(_sender.ErrorRecord(op, SocketSender.Interrupted));
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
        var connection = Acquire(op.User);
        connection.Op = op;
        connection.Request = _sender.Request(op.Target);
        connection.Deadline = Stopwatch.GetTimestamp() + _sender.TimeoutTicks;
        Begin(connection);
    }

    private void Begin(Connection connection)
    {
        connection.SendOffset = 0;
        connection.Parser.Reset(connection.Request!.IsHead);
        connection.Parser.CaptureServer = _sender.ServerSoftware is null;
        if (connection.Fd >= 0)
        {
            Send(connection);
            return;
        }
        var fd = Native.Connect(_sender.Endpoint, out var inProgress);
        if (fd < 0)
        {
            Fail(connection, $"connect: {Native.Message(-fd)} ({_sender.Endpoint})");
            return;
        }
        connection.Opened(fd);
        connection.Connecting = inProgress;
        Native.Control(_epoll, fd, inProgress ? Native.EPOLLOUT : Native.EPOLLIN, connection.Tag, modify: false);
        if (!inProgress)
        {
            Send(connection);
        }
    }

    private Connection Acquire(int user)
    {
        if (user >= 0)
        {
            if (!_users.TryGetValue(user, out var own))
            {
                own = NewConnection();
                _users[user] = own;
            }
            return own;
        }
        return _idle.TryPop(out var idle) ? idle : NewConnection();
    }

    private Connection NewConnection()
    {
        var connection = new Connection(_connections.Count);
        _connections.Add(connection);
        return connection;
    }

    private void OnEvent(Connection connection, uint events)
    {
        if (connection.Connecting)
        {
            var error = Native.SocketError(connection.Fd);
            if (error != 0)
            {
                Fail(connection, $"connect: {Native.Message(error)} ({_sender.Endpoint})");
                return;
            }
            connection.Connecting = false;
            Native.Control(_epoll, connection.Fd, Native.EPOLLIN, connection.Tag, modify: true);
            Send(connection);
            return;
        }
        if (connection.WantWrite && (events & Native.EPOLLOUT) != 0)
        {
            Send(connection);
        }
        if ((events & (Native.EPOLLIN | Native.EPOLLERR | Native.EPOLLHUP | Native.EPOLLRDHUP)) != 0 && connection.Fd >= 0)
        {
            Receive(connection);
        }
    }

    private void Send(Connection connection)
    {
        var request = connection.Request!;
        while (connection.SendOffset < request.Length)
        {
            var n = Native.Send(connection.Fd, request.Address + connection.SendOffset, request.Length - connection.SendOffset);
            if (n > 0)
            {
                connection.SendOffset += (int)n;
                continue;
            }
            if (n == -Native.EINTR)
            {
                continue;
            }
            if (n == -Native.EAGAIN)
            {
                if (!connection.WantWrite)
                {
                    connection.WantWrite = true;
                    Native.Control(_epoll, connection.Fd, Native.EPOLLIN | Native.EPOLLOUT, connection.Tag, modify: true);
                }
                return;
            }
            RetryOrFail(connection, "send: " + Native.Message((int)-n));
            return;
        }
        if (connection.WantWrite)
        {
            connection.WantWrite = false;
            Native.Control(_epoll, connection.Fd, Native.EPOLLIN, connection.Tag, modify: true);
        }
    }

    private void Receive(Connection connection)
    {
        var op = connection.Op;
        while (true)
        {
            var n = Native.Receive(connection.Fd, _bufferAddress, ReceiveBufferSize);
            if (n == -Native.EINTR)
            {
                continue;
            }
            if (n == -Native.EAGAIN)
            {
                return;
            }
            if (op is null)
            {
                // An idle keep-alive connection the server closed (or that spoke out of turn): drop it.
                CloseSocket(connection);
                return;
            }
            var parser = connection.Parser;
            if (n < 0)
            {
                RetryOrFail(connection, "receive: " + Native.Message((int)-n));
                return;
            }
            if (n == 0)
            {
                if (!parser.Started)
                {
                    RetryOrFail(connection, "receive: the server closed the connection without a response");
                }
                else if (parser.Finish() == ParseStatus.Complete)
                {
                    Succeed(connection);
                }
                else
                {
                    Fail(connection, "receive: " + parser.Problem);
                }
                return;
            }
            if (!parser.Started)
            {
                op.FirstByte = _sender.Now;
            }
            var status = parser.Consume(_buffer.AsSpan(0, (int)n), out _);
            if (status == ParseStatus.Complete)
            {
                Succeed(connection);
                return;
            }
            if (status == ParseStatus.Invalid)
            {
                Fail(connection, "receive: invalid response: " + parser.Problem);
                return;
            }
            if (n < ReceiveBufferSize)
            {
                return;
            }
        }
    }

    // A reused keep-alive connection that fails before any response byte was probably closed by the server while
    // idle: resend once on a new connection, as HttpClient does. Anything else is the request's error.
    private void RetryOrFail(Connection connection, string error)
    {
        var op = connection.Op!;
        if (connection.Reused && !op.Retried && !connection.Parser.Started)
        {
            op.Retried = true;
            CloseSocket(connection);
            Begin(connection);
            return;
        }
        Fail(connection, error);
    }

    private void Succeed(Connection connection)
    {
        var op = connection.Op!;
        var parser = connection.Parser;
        if (!_sender.KeepAlive || parser.ConnectionClose)
        {
            CloseSocket(connection);
        }
        else
        {
            connection.Reused = true;
        }
        var record = _sender.ResponseRecord(op, parser, connection.Request!.Length);
        Release(connection);
        op.Complete(record);
    }

    private void Fail(Connection connection, string error)
    {
        var op = connection.Op!;
        CloseSocket(connection);
        Release(connection);
        op.Complete(_sender.ErrorRecord(op, error));
    }

    private void Release(Connection connection)
    {
        var op = connection.Op!;
        connection.Op = null;
        if (op.User < 0)
        {
            _idle.Push(connection);
        }
    }

    private void ExpireRequests(long now)
    {
        var aborted = _sender.Aborted;
        for (var i = 0; i < _connections.Count; i++)
        {
            var connection = _connections[i];
            if (connection.Op is not null && (aborted || now > connection.Deadline))
            {
                Fail(connection, aborted ? SocketSender.Interrupted : _sender.TimeoutMessage);
            }
        }
    }

    private void CloseSocket(Connection connection)
    {
        if (connection.Fd >= 0)
        {
            Native.Close(connection.Fd);
            connection.Closed();
        }
    }
}
