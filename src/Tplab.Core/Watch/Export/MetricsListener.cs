using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Prometheus;

namespace Tplab.Watch.Export;

/// <summary>
/// The scrape endpoint of <c>--prometheus</c>: GET /metrics on a socket of our own. HttpListener (which prometheus-net's
/// MetricServer uses) takes no IPv6 literal on Linux ("Invalid port in prefix" for <c>[::1]:9464</c>) and binds
/// IPv4 only for every interface; here <c>[::1]</c> is IPv6 loopback and <c>[::]</c> (or <c>*</c>) both families, as
/// docs/watch.md says. Bounded: requests of at most 8 KiB read within 5 s, at most 16 connections served at once.
/// </summary>
internal sealed class MetricsListener : IDisposable
{
    private const int MaxRequest = 8 * 1024;
    private static readonly TimeSpan ReadTimeout = TimeSpan.FromSeconds(5);
    private readonly Socket _socket;
    private readonly CollectorRegistry _registry;
    private readonly CancellationTokenSource _stop = new();
    private readonly SemaphoreSlim _slots = new(16);

    private MetricsListener(Socket socket, CollectorRegistry registry)
    {
        _socket = socket;
        _registry = registry;
        _ = Task.Run(AcceptAsync);
    }

    /// <summary>Listens at <paramref name="address"/>; a <see cref="SocketException"/> when it cannot (in use, not this machine's).</summary>
    public static MetricsListener Start(ListenAddress address, CollectorRegistry registry)
    {
        var (ip, bothFamilies) = address.Host switch
        {
            "*" or "::" => (IPAddress.IPv6Any, true),
            "0.0.0.0" => (IPAddress.Any, false),
            "localhost" => (IPAddress.Loopback, false),
            var host => (IPAddress.Parse(host), false),
        };
        var socket = new Socket(ip.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (bothFamilies)
            {
                socket.DualMode = true;
            }
            socket.Bind(new IPEndPoint(ip, address.Port));
            socket.Listen(64);
            return new MetricsListener(socket, registry);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    public void Dispose()
    {
        _stop.Cancel();
        _socket.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await _socket.AcceptAsync(_stop.Token).ConfigureAwait(false);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }
            if (!await _slots.WaitAsync(0).ConfigureAwait(false))
            {
                client.Dispose(); // busy: a scraper retries at its next interval
                continue;
            }
            _ = Task.Run(async () =>
            {
                try
                {
                    await ServeAsync(client).ConfigureAwait(false);
                }
                finally
                {
                    _slots.Release();
                    client.Dispose();
                }
            });
        }
    }

    private async Task ServeAsync(Socket client)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
        timeout.CancelAfter(ReadTimeout);
        try
        {
            await using var stream = new NetworkStream(client, ownsSocket: false);
            var request = await ReadHeadAsync(stream, timeout.Token).ConfigureAwait(false);
            var words = request?.Split(' ', 3) ?? [];
            var path = words.Length >= 2 ? words[1].Split('?')[0].TrimEnd('/') : "";
            if (words.Length < 3 || !words[2].StartsWith("HTTP/1.", StringComparison.Ordinal))
            {
                await RespondAsync(stream, "400 Bad Request", "text/plain", "bad request\n"u8.ToArray(), head: false, timeout.Token).ConfigureAwait(false);
            }
            else if (path != "/metrics")
            {
                await RespondAsync(stream, "404 Not Found", "text/plain", "tplab serves /metrics\n"u8.ToArray(), head: false, timeout.Token).ConfigureAwait(false);
            }
            else if (words[0] is not ("GET" or "HEAD"))
            {
                await RespondAsync(stream, "405 Method Not Allowed", "text/plain", "GET /metrics\n"u8.ToArray(), head: false, timeout.Token).ConfigureAwait(false);
            }
            else
            {
                using var body = new MemoryStream();
                await _registry.CollectAndExportAsTextAsync(body, timeout.Token).ConfigureAwait(false);
                await RespondAsync(stream, "200 OK", "text/plain; version=0.0.4; charset=utf-8", body.ToArray(), words[0] == "HEAD", timeout.Token).ConfigureAwait(false);
            }
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The scraper went away, or sent nothing in time: nothing to answer.
        }
    }

    // The request line, once the head has ended; null when the head is too long or the peer closed first.
    private static async Task<string?> ReadHeadAsync(NetworkStream stream, CancellationToken ct)
    {
        var buffer = new byte[MaxRequest];
        var length = 0;
        while (length < buffer.Length)
        {
            var read = await stream.ReadAsync(buffer.AsMemory(length), ct).ConfigureAwait(false);
            if (read == 0)
            {
                return null;
            }
            length += read;
            var head = buffer.AsSpan(0, length);
            if (head.IndexOf("\r\n\r\n"u8) >= 0 || head.IndexOf("\n\n"u8) >= 0)
            {
                var line = head[..head.IndexOf((byte)'\n')];
                return Encoding.ASCII.GetString(line).TrimEnd('\r');
            }
        }
        return null;
    }

    private static async Task RespondAsync(NetworkStream stream, string status, string type, byte[] body, bool head, CancellationToken ct)
    {
        var header = string.Create(CultureInfo.InvariantCulture,
            $"HTTP/1.1 {status}\r\nContent-Type: {type}\r\nContent-Length: {body.Length}\r\nConnection: close\r\n\r\n");
        await stream.WriteAsync(Encoding.ASCII.GetBytes(header), ct).ConfigureAwait(false);
        if (!head)
        {
            await stream.WriteAsync(body, ct).ConfigureAwait(false);
        }
    }
}
