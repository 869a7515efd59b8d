using System.Runtime.InteropServices;
using Tplab.Load.Engine.Http1;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// One request's exchange on a connection, as wrk's socket callbacks are: connect when the connection has no socket,
/// one send() of the pre-built bytes, one recv() per readiness event parsed in place from one buffer shared by the
/// loop, then the record. Keeps each socket's epoll interest to what it waits for (EPOLLOUT only while a send is
/// short), so a steady request costs one send and one recv and no epoll_ctl. Runs on its loop's thread only.
/// </summary>
internal sealed class ConnectionIo
{
    private const int ReceiveBufferSize = 64 * 1024;

    private readonly SocketSender _sender;
    private readonly int _epoll;
    private readonly ConnectionPool _pool;
    private readonly byte[] _buffer = GC.AllocateUninitializedArray<byte>(ReceiveBufferSize, pinned: true);
    private readonly nint _bufferAddress;

    public ConnectionIo(SocketSender sender, int epoll, ConnectionPool pool)
    {
        _sender = sender;
        _epoll = epoll;
        _pool = pool;
        _bufferAddress = Marshal.UnsafeAddrOfPinnedArrayElement(_buffer, 0);
    }

    /// <summary>Connects not yet answered (a server whose accept queue is full leaves them pending for a second or more).</summary>
    public int Connecting { get; private set; }

    /// <summary>Starts the request of <paramref name="connection"/>: sends it, connecting first when needed.</summary>
    public void Begin(Connection connection)
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
        Connecting += inProgress ? 1 : 0;
        Native.Control(_epoll, fd, inProgress ? Native.EPOLLOUT : Native.EPOLLIN, connection.Tag, modify: false);
        if (!inProgress)
        {
            Send(connection);
        }
    }

    /// <summary>Handles readiness <paramref name="events"/> of <paramref name="connection"/>'s socket.</summary>
    public void OnEvent(Connection connection, uint events)
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
            Connecting--;
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

    /// <summary>Ends <paramref name="connection"/>'s request as failed with <paramref name="error"/> and closes its socket.</summary>
    public void Fail(Connection connection, string error)
    {
        var op = connection.Op!;
        CloseSocket(connection);
        Release(connection);
        op.Complete(_sender.ErrorRecord(op, error));
    }

    public void CloseSocket(Connection connection)
    {
        if (connection.Fd >= 0)
        {
            Connecting -= connection.Connecting ? 1 : 0;
            Native.Close(connection.Fd);
            connection.Closed();
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
                    Succeed(connection, _sender.Now);
                }
                else
                {
                    Fail(connection, "receive: " + parser.Problem);
                }
                return;
            }
            // One clock read per recv: a response that arrives in one piece (the usual case) has its first and last
            // byte in the same read, and the parse that follows is not the server's time.
            var now = _sender.Now;
            if (!parser.Started)
            {
                op.FirstByte = now;
            }
            var status = parser.Consume(_buffer.AsSpan(0, (int)n), out _);
            if (status == ParseStatus.Complete)
            {
                Succeed(connection, now);
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

    private void Succeed(Connection connection, TimeSpan end)
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
        var record = _sender.ResponseRecord(op, parser, connection.Request!.Length, end);
        Release(connection);
        op.Complete(record);
    }

    private void Release(Connection connection)
    {
        var user = connection.Op!.User;
        connection.Op = null;
        _pool.Release(connection, user);
    }
}
