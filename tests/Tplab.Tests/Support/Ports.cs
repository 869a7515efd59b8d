using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Tplab.Tests.Support;

/// <summary>
/// Ports for tests. Where a server can take port 0 the test passes 0 and reads the bound port back; these are for the
/// rest. <see cref="Free"/> hands out a port for a program that must be given one (Prometheus, the HttpListener of the
/// exporter): below the kernel's ephemeral range, so no outgoing connection of a parallel test takes it meanwhile,
/// never the same twice in this process, and checked free by binding it. <see cref="Refusing"/> is a port where
/// connections are refused for as long as the test holds it: bound, never listening.
/// </summary>
internal static class Ports
{
    // Linux's ephemeral range starts at 32768 (net.ipv4.ip_local_port_range); start somewhere in 20000-30000 by process,
    // so that two suites on one machine rarely walk the same ports.
    private static int _next = 20000 + (Environment.ProcessId % 1000 * 10);

    /// <summary>A port nothing listens on now, for a program that must be given its port.</summary>
    public static int Free()
    {
        for (var tries = 0; tries < 1000; tries++)
        {
            var port = Interlocked.Increment(ref _next);
            if (port >= 32000)
            {
                Interlocked.CompareExchange(ref _next, 20000, port);
                continue;
            }
            try
            {
                using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                probe.Bind(new IPEndPoint(IPAddress.Loopback, port));
                return port;
            }
            catch (SocketException)
            {
                // Taken: the next one.
            }
        }
        throw new InvalidOperationException("no free port below the ephemeral range");
    }

    /// <summary>A loopback port that refuses connections until disposed (bound by the kernel's choice, never listening).</summary>
    public static RefusingPort Refusing() => new();

    /// <summary>A bound socket that never listens: a connection to its port is refused, and no one else can take the port.</summary>
    internal sealed class RefusingPort : IDisposable
    {
        private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);

        public RefusingPort()
        {
            _socket.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            Port = ((IPEndPoint)_socket.LocalEndPoint!).Port;
        }

        public int Port { get; }

        public override string ToString() => Port.ToString(CultureInfo.InvariantCulture);

        public void Dispose() => _socket.Dispose();
    }
}
