using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// The few Linux system calls the socket engine makes, called directly: epoll, eventfd, non-blocking sockets,
/// send and recv. .NET's own Socket would route every completion through its epoll thread and the thread pool,
/// which is where a load generator's CPU goes; wrk calls the same functions from C.
/// Buffers are pinned arrays passed by address; no marshalling happens on any call.
/// </summary>
internal static class Native
{
    public const int EAGAIN = 11;
    public const int EINTR = 4;
    public const int EINPROGRESS = 115;
    public const int ENOSYS = 38;
    public const int EMFILE = 24;

    public const uint EPOLLIN = 0x001;
    public const uint EPOLLOUT = 0x004;
    public const uint EPOLLERR = 0x008;
    public const uint EPOLLHUP = 0x010;
    public const uint EPOLLRDHUP = 0x2000;

    private const int EPOLL_CTL_ADD = 1;
    private const int EPOLL_CTL_DEL = 2;
    private const int EPOLL_CTL_MOD = 3;
    private const int CLOEXEC = 0x80000;
    private const int NONBLOCK = 0x800;
    private const int SOCK_STREAM = 1;
    private const int AF_INET = 2;
    private const int AF_INET6 = 10;
    private const int IPPROTO_TCP = 6;
    private const int TCP_NODELAY = 1;
    private const int SOL_SOCKET = 1;
    private const int SO_ERROR = 4;
    private const int MSG_NOSIGNAL = 0x4000;
    private const int PR_SET_TIMERSLACK = 29;
    private const int RLIMIT_NOFILE = 7;

    // The runtime needs descriptors of its own (threads, files, its diagnostic socket): when an open loop against a
    // server that never answers took the last ones, the runtime failed with "Out of memory." and aborted. Sockets stop
    // this far short of the process's limit, and the request fails with EMFILE as if the limit were there.
    private static readonly int s_socketCeiling = SocketCeiling();

    /// <summary>Size of one struct epoll_event: packed (12 bytes) on x86-64, naturally aligned (16) elsewhere.</summary>
    public static readonly int EpollEventSize = RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.X86 ? 12 : 16;

    private static readonly int DataOffset = EpollEventSize == 12 ? 4 : 8;

    private static bool s_pwait2 = true;

    /// <summary>True where this engine can run: Linux on x64 or arm64.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux() && RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.Arm64;

    public static int EpollCreate() => Check(epoll_create1(CLOEXEC), "epoll_create1");

    public static int EventFd() => Check(eventfd(0, NONBLOCK | CLOEXEC), "eventfd");

    /// <summary>Registers <paramref name="fd"/> (add, or modify when <paramref name="modify"/>) for <paramref name="events"/> with <paramref name="data"/> as its tag.</summary>
    public static int Control(int epfd, int fd, uint events, ulong data, bool modify)
    {
        Span<byte> ev = stackalloc byte[16];
        ev.Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(ev, events);
        BinaryPrimitives.WriteUInt64LittleEndian(ev[DataOffset..], data);
        return epoll_ctl(epfd, modify ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, ref MemoryMarshal.GetReference(ev));
    }

    public static void Remove(int epfd, int fd)
    {
        byte unused = 0;
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, ref unused);
    }

    public static int Wait(int epfd, nint events, int max, int timeoutMs) => epoll_wait(epfd, events, max, timeoutMs);

    /// <summary>
    /// Waits at most <paramref name="timeout"/> (to the microsecond) for events: epoll_pwait2 (Linux 5.11, glibc 2.35),
    /// else epoll_wait with the timeout rounded up to whole milliseconds.
    /// </summary>
    public static int Wait(int epfd, nint events, int max, TimeSpan timeout)
    {
        if (s_pwait2)
        {
            Span<long> spec = [timeout.Ticks / TimeSpan.TicksPerSecond, timeout.Ticks % TimeSpan.TicksPerSecond * 100];
            try
            {
                var n = epoll_pwait2(epfd, events, max, ref MemoryMarshal.GetReference(spec), 0);
                if (n >= 0 || Marshal.GetLastPInvokeError() != ENOSYS)
                {
                    return n;
                }
            }
            catch (EntryPointNotFoundException)
            {
            }
            s_pwait2 = false;
        }
        return epoll_wait(epfd, events, max, (int)Math.Ceiling(timeout.TotalMilliseconds));
    }

    /// <summary>
    /// Sets the calling thread's timer slack (how late the kernel may wake a timed wait to merge wake-ups; 50 µs by
    /// default) to <paramref name="nanoseconds"/>: a loop that sends on a schedule wants its waits to end on time.
    /// </summary>
    public static void SetTimerSlack(long nanoseconds) => _ = prctl(PR_SET_TIMERSLACK, (nint)nanoseconds, 0, 0, 0);

    public static uint EventsAt(ReadOnlySpan<byte> events, int i) => BinaryPrimitives.ReadUInt32LittleEndian(events[(i * EpollEventSize)..]);

    public static ulong DataAt(ReadOnlySpan<byte> events, int i) => BinaryPrimitives.ReadUInt64LittleEndian(events[((i * EpollEventSize) + DataOffset)..]);

    /// <summary>A non-blocking TCP socket with Nagle off, connecting to <paramref name="endpoint"/>; returns the fd, or -errno.</summary>
    public static int Connect(IPEndPoint endpoint, out bool inProgress)
    {
        inProgress = false;
        var v6 = endpoint.AddressFamily == AddressFamily.InterNetworkV6;
        var fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | NONBLOCK | CLOEXEC, 0);
        if (fd < 0)
        {
            return -Marshal.GetLastPInvokeError();
        }
        if (fd >= s_socketCeiling)
        {
            // Descriptors are handed out lowest first: this one this high means nearly all of them are in use.
            _ = close(fd);
            return -EMFILE;
        }
        var one = 1;
        _ = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, ref one, sizeof(int));
        var address = SocketAddress(endpoint);
        if (connect(fd, address, address.Length) == 0)
        {
            return fd;
        }
        var errno = Marshal.GetLastPInvokeError();
        if (errno == EINPROGRESS)
        {
            inProgress = true;
            return fd;
        }
        _ = close(fd);
        return -errno;
    }

    /// <summary>The pending error of a socket whose connect finished (0: connected).</summary>
    public static int SocketError(int fd)
    {
        var error = 0;
        var length = sizeof(int);
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, ref error, ref length) == 0 ? error : Marshal.GetLastPInvokeError();
    }

    /// <summary>Bytes sent, or -errno.</summary>
    public static long Send(int fd, nint buffer, int length)
    {
        var n = send(fd, buffer, length, MSG_NOSIGNAL);
        return n >= 0 ? n : -Marshal.GetLastPInvokeError();
    }

    /// <summary>Bytes received (0: the peer closed), or -errno.</summary>
    public static long Receive(int fd, nint buffer, int length)
    {
        var n = recv(fd, buffer, length, 0);
        return n >= 0 ? n : -Marshal.GetLastPInvokeError();
    }

    public static void Signal(int eventFd)
    {
        long one = 1;
        _ = write(eventFd, ref one, sizeof(long));
    }

    public static void Drain(int eventFd)
    {
        long value = 0;
        _ = read(eventFd, ref value, sizeof(long));
    }

    public static void Close(int fd) => _ = close(fd);

    /// <summary>Sleeps <paramref name="duration"/> (below a second) with nanosleep.</summary>
    public static void Sleep(TimeSpan duration)
    {
        Span<long> spec = [0, Math.Clamp(duration.Ticks * 100, 0, 999_999_999)];
        _ = nanosleep(ref MemoryMarshal.GetReference(spec), 0);
    }

    /// <summary>strerror's text for <paramref name="errno"/> ("Connection refused").</summary>
    public static string Message(int errno) => Marshal.GetPInvokeErrorMessage(errno);

    private static byte[] SocketAddress(IPEndPoint endpoint)
    {
        var v6 = endpoint.AddressFamily == AddressFamily.InterNetworkV6;
        var address = new byte[v6 ? 28 : 16];
        BinaryPrimitives.WriteUInt16LittleEndian(address, (ushort)(v6 ? AF_INET6 : AF_INET));
        BinaryPrimitives.WriteUInt16BigEndian(address.AsSpan(2), (ushort)endpoint.Port);
        if (v6)
        {
            endpoint.Address.TryWriteBytes(address.AsSpan(8, 16), out _);
            BinaryPrimitives.WriteUInt32LittleEndian(address.AsSpan(24), (uint)endpoint.Address.ScopeId);
        }
        else
        {
            endpoint.Address.TryWriteBytes(address.AsSpan(4, 4), out _);
        }
        return address;
    }

    private static int SocketCeiling()
    {
        var limit = getrlimit(RLIMIT_NOFILE, out var l) == 0 && l.Current is > 0 and < int.MaxValue ? (int)l.Current : 1024;
        return limit - Math.Clamp(limit / 8, 64, 1024);
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct ResourceLimit
    {
        public ulong Current;
        public ulong Maximum;
    }

    private static int Check(int result, string call) =>
        result >= 0 ? result : throw new IOException($"{call}: {Message(Marshal.GetLastPInvokeError())}");

#pragma warning disable SYSLIB1054 // DllImport with blittable arguments: no marshalling stub is generated either way.
    [DllImport("libc", SetLastError = true)]
    private static extern int epoll_create1(int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern int epoll_ctl(int epfd, int op, int fd, ref byte ev);

    [DllImport("libc", SetLastError = true)]
    private static extern int epoll_wait(int epfd, nint events, int maxevents, int timeout);

    [DllImport("libc", SetLastError = true)]
    private static extern int epoll_pwait2(int epfd, nint events, int maxevents, ref long timeout, nint sigmask);

    [DllImport("libc", SetLastError = true)]
    private static extern int prctl(int option, nint arg2, nint arg3, nint arg4, nint arg5);

    [DllImport("libc", SetLastError = true)]
    private static extern int eventfd(uint initval, int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern int socket(int domain, int type, int protocol);

    [DllImport("libc", SetLastError = true)]
    private static extern int getrlimit(int resource, out ResourceLimit limit);

    [DllImport("libc", SetLastError = true)]
    private static extern int connect(int fd, byte[] address, int length);

    [DllImport("libc", SetLastError = true)]
    private static extern int setsockopt(int fd, int level, int name, ref int value, int length);

    [DllImport("libc", SetLastError = true)]
    private static extern int getsockopt(int fd, int level, int name, ref int value, ref int length);

    [DllImport("libc", SetLastError = true)]
    private static extern nint send(int fd, nint buffer, nint length, int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern nint recv(int fd, nint buffer, nint length, int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern nint read(int fd, ref long value, nint length);

    [DllImport("libc", SetLastError = true)]
    private static extern nint write(int fd, ref long value, nint length);

    [DllImport("libc", SetLastError = true)]
    private static extern int close(int fd);

    [DllImport("libc", SetLastError = true)]
    private static extern int nanosleep(ref long request, nint remaining);
#pragma warning restore SYSLIB1054
}
