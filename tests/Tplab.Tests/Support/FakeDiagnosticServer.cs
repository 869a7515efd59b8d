using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using System.Text;
using Tplab.Processes;

namespace Tplab.Tests.Support;

/// <summary>How a fake diagnostic socket misbehaves.</summary>
public enum SocketFault
{
    /// <summary>The socket file is there, nobody listens: connect is refused.</summary>
    Refuses,

    /// <summary>Accepts and never answers.</summary>
    Stalls,

    /// <summary>Answers the session request with OK, then closes the connection: the session ends at once.</summary>
    Disconnects,

    /// <summary>The same, but holds the connection 2.5 s first: past a 1 s capture, so the session's stop is answered and the stream then ends with no trace in it.</summary>
    DisconnectsLate,
}

/// <summary>
/// A diagnostic socket that misbehaves, published for a process that is alive (a <c>sleep</c>): the name and key a
/// runtime would use (<c>dotnet-diagnostic-{pid}-{start ticks}-socket</c>), so tplab finds it as it finds a real one.
/// </summary>
internal sealed class FakeDiagnosticServer : IAsyncDisposable
{
    private readonly Process _sleeper;
    private readonly Socket _socket;
    private readonly string _path;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Socket> _accepted = [];

    private FakeDiagnosticServer(Process sleeper, Socket socket, string path)
    {
        _sleeper = sleeper;
        _socket = socket;
        _path = path;
    }

    /// <summary>The process the socket claims to belong to.</summary>
    public int ProcessId => _sleeper.Id;

    public static FakeDiagnosticServer Start(SocketFault fault)
    {
        var sleeper = Process.Start("sleep", "120");
        Thread.Sleep(100);
        var key = ProcessFiles.StartTicks(sleeper.Id)!.Value.ToString(CultureInfo.InvariantCulture);
        var path = Path.Combine("/tmp", $"dotnet-diagnostic-{sleeper.Id.ToString(CultureInfo.InvariantCulture)}-{key}-socket");
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.Bind(new UnixDomainSocketEndPoint(path));
        var server = new FakeDiagnosticServer(sleeper, socket, path);
        if (fault == SocketFault.Refuses)
        {
            socket.Close(); // the file stays; connecting to it is refused
        }
        else
        {
            socket.Listen(8);
            _ = server.ServeAsync(fault);
        }
        return server;
    }

    private async Task ServeAsync(SocketFault fault)
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var client = await _socket.AcceptAsync(_stop.Token);
                lock (_accepted)
                {
                    _accepted.Add(client);
                }
                if (fault == SocketFault.Disconnects)
                {
                    await AnswerThenCloseAsync(client, TimeSpan.FromMilliseconds(300));
                }
                else if (fault == SocketFault.DisconnectsLate)
                {
                    // Each connection on its own: the capture's session and its stop overlap the pool watch's.
                    _ = AnswerThenCloseAsync(client, TimeSpan.FromMilliseconds(2500));
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
    }

    private async Task AnswerThenCloseAsync(Socket client, TimeSpan hold)
    {
        try
        {
            var buffer = new byte[4096];
            await client.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
            // An IPC OK response: magic, size, command set 0xFF, command 0x00, reserved, then the session id.
            var response = new List<byte>(Encoding.ASCII.GetBytes("DOTNET_IPC_V1\0"));
            response.AddRange(BitConverter.GetBytes((ushort)28));
            response.AddRange([0xFF, 0x00, 0x00, 0x00]);
            response.AddRange(BitConverter.GetBytes(1UL));
            await client.SendAsync(response.ToArray(), SocketFlags.None, _stop.Token);
            await Task.Delay(hold, _stop.Token);
            client.Close();
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _socket.Dispose();
        lock (_accepted)
        {
            _accepted.ForEach(s => s.Dispose());
        }
        File.Delete(_path);
        _sleeper.Kill();
        await _sleeper.WaitForExitAsync();
        _sleeper.Dispose();
        _stop.Dispose();
    }
}
