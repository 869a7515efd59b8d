using System.Net;
using System.Net.Sockets;
using System.Text;

namespace ShopApp.Integration;

/// <summary>The stock mainframe's line protocol over TCP: one request line, one reply line.</summary>
public sealed class MainframeGateway(MainframeEmulator mainframe)
{
    public string Query(string command)
    {
        using var client = new TcpClient();
        client.Connect(mainframe.EndPoint);
        using var stream = client.GetStream();
        var request = Encoding.ASCII.GetBytes(command + "\n");
        stream.Write(request);
        var buffer = new byte[256];
        var read = stream.Read(buffer);
        return Encoding.ASCII.GetString(buffer, 0, read).TrimEnd('\n');
    }
}

/// <summary>Stands in for the mainframe when the shop runs alone: answers each line after 300 ms.</summary>
public sealed class MainframeEmulator : BackgroundService
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);

    public MainframeEmulator() => _listener.Start(512);

    public IPEndPoint EndPoint => (IPEndPoint)_listener.LocalEndpoint;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                var client = await _listener.AcceptTcpClientAsync(stoppingToken);
                _ = AnswerAsync(client, stoppingToken);
            }
        }
        catch (OperationCanceledException)
        {
        }
        finally
        {
            _listener.Stop();
        }
    }

    private static async Task AnswerAsync(TcpClient client, CancellationToken ct)
    {
        using (client)
        {
            try
            {
                var stream = client.GetStream();
                var buffer = new byte[256];
                var read = await stream.ReadAsync(buffer, ct);
                await Task.Delay(300, ct);
                await stream.WriteAsync(Encoding.ASCII.GetBytes($"OK {read}\n"), ct);
            }
            catch (Exception e) when (e is IOException or OperationCanceledException or SocketException)
            {
            }
        }
    }
}
