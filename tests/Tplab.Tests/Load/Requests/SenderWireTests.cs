using System.Net;
using System.Net.Sockets;
using System.Text;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Requests;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Requests;

/// <summary>
/// What the sender puts on the wire for each template, and what it reads back from the handler-timing header,
/// against a loopback socket server that records every request as raw bytes.
/// </summary>
[ParallelSafe]
public sealed class SenderWireTests
{
    [Fact]
    public async Task Targets_MethodHeadersBodyAndWeights_SentAsGivenAndHandlerTimingRead()
    {
        using var server = new RecordingServer();
        var post = new RequestTemplate("POST", server.Url("/orders"), [new("Content-Type", "application/json"), new("X-Trace", "abc")],
            Encoding.UTF8.GetBytes("{\"sku\":1}"), Weight: 1);
        var get = RequestTemplate.Get(server.Url("/orders/42")) with { Weight = 3 };
        var options = new LoadOptions { Url = get.Url, Targets = [get, post], Concurrency = 1, Requests = 8, KeepRecords = true };

        var result = await LoadRunner.RunAsync(options, null, CancellationToken.None);

        Assert.Equal(8, result.Summary.Succeeded);
        var requests = server.Requests.ToArray();
        Assert.Equal(6, requests.Count(r => r.StartsWith("GET /orders/42 HTTP/1.1\r\n", StringComparison.Ordinal)));
        var posts = requests.Where(r => r.StartsWith("POST /orders HTTP/1.1\r\n", StringComparison.Ordinal)).ToArray();
        Assert.Equal(2, posts.Length);
        Assert.All(posts, p =>
        {
            Assert.Contains("Content-Type: application/json\r\n", p, StringComparison.OrdinalIgnoreCase);
            Assert.Contains("X-Trace: abc\r\n", p, StringComparison.Ordinal);
            Assert.Contains("Content-Length: 9\r\n", p, StringComparison.OrdinalIgnoreCase);
            Assert.EndsWith("\r\n\r\n{\"sku\":1}", p, StringComparison.Ordinal);
        });
        Assert.Equal(6, result.Records.Count(r => r.Target == 0));
        Assert.Equal(2, result.Records.Count(r => r.Target == 1));
        Assert.All(result.Records, r =>
        {
            // The server stamps its handler 5 ms long, starting after the request arrived: on one machine the clocks agree.
            Assert.NotNull(r.HandlerStart);
            Assert.Equal(5.0, r.HandlerTime!.Value.TotalMilliseconds, 2);
            Assert.InRange(r.WaitedForThread!.Value.TotalMilliseconds, -1.0, (r.End - r.Start).TotalMilliseconds);
        });
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task BytesOut_BothEngines_CountTheBytesTheSocketsEngineSent(bool keepAlive)
    {
        // Methods with and without a body, the template's own Host and Connection headers: each rule of the request's
        // head. The httpclient engine cannot see its bytes, so it must count by the same rules as the sockets engine.
        RequestTemplate[] Templates(RecordingServer server) =>
        [
            RequestTemplate.Get(server.Url("/a?q=1")),
            new("POST", server.Url("/orders"), [new("Content-Type", "application/json")], Encoding.UTF8.GetBytes("{\"sku\":1}")),
            new("PUT", server.Url("/empty"), [], ReadOnlyMemory<byte>.Empty),
            new("DELETE", server.Url("/orders/7"), [new("X-Trace", "abc")], ReadOnlyMemory<byte>.Empty),
            new("GET", server.Url("/host"), [new("Host", "shop.example"), new("Connection", keepAlive ? "keep-alive" : "close")], ReadOnlyMemory<byte>.Empty),
        ];
        var counted = new Dictionary<EngineChoice, long>();
        foreach (var engine in new[] { EngineChoice.Sockets, EngineChoice.HttpClient })
        {
            using var server = new RecordingServer();
            var targets = Templates(server);
            var options = new LoadOptions { Engine = engine, Url = targets[0].Url, Targets = targets, Concurrency = 1, Requests = 20, KeepAlive = keepAlive };
            var result = await LoadRunner.RunAsync(options, null, CancellationToken.None);
            Assert.Equal(20, result.Summary.Succeeded);
            counted[engine] = result.Summary.BytesOut;
            Assert.Equal(result.Summary.BytesOut, result.Summary.Targets.Sum(t => t.BytesOut));
            if (engine == EngineChoice.Sockets)
            {
                Assert.Equal(server.BytesReceived, result.Summary.BytesOut);
            }
        }
        Assert.Equal(counted[EngineChoice.Sockets], counted[EngineChoice.HttpClient]);
    }

    [Theory]
    [InlineData(EngineChoice.Sockets)]
    [InlineData(EngineChoice.HttpClient)]
    public async Task NoServerTimingHeader_HandlerFieldsNull(EngineChoice engine)
    {
        using var server = new RecordingServer(stampHandler: false);
        var options = new LoadOptions { Engine = engine, Url = server.Url("/x"), Concurrency = 1, Requests = 2, KeepRecords = true };
        var result = await LoadRunner.RunAsync(options, null, CancellationToken.None);
        Assert.Equal(2, result.Summary.Succeeded);
        Assert.All(result.Records, r => Assert.Null(r.WaitedForThread));
    }

    [Theory]
    [InlineData("GE T", "X", "1", "'GE T' is not an HTTP method")]
    [InlineData("GET", "Bad Name", "1", "'Bad Name' is not a valid header name")]
    [InlineData("GET", "X", "a\r\nEvil: 1", "the value of header X holds a line break")]
    public void Validate_MalformedTemplate_OneLine(string method, string header, string value, string message)
    {
        var url = new Uri("http://127.0.0.1:1/");
        var options = new LoadOptions { Url = url, Requests = 1, Targets = [new RequestTemplate(method, url, [new(header, value)], ReadOnlyMemory<byte>.Empty)] };
        var e = Assert.Throws<Tplab.Common.TplabException>(() => options.Validate());
        Assert.Equal(message, e.Message);
    }

    [Fact]
    public void Validate_RemoteTarget_RefusedWithoutAllowRemote()
    {
        var options = new LoadOptions
        {
            Url = new Uri("http://127.0.0.1:1/"), Requests = 1,
            Targets = [RequestTemplate.Get(new Uri("http://127.0.0.1:1/")), RequestTemplate.Get(new Uri("http://example.invalid/"))],
        };
        var e = Assert.Throws<Tplab.Common.TplabException>(() => options.Validate());
        Assert.Contains("is not loopback", e.Message, StringComparison.Ordinal);
    }

    /// <summary>A keep-alive HTTP/1.1 server on loopback that keeps each request's raw text and answers "ok".</summary>
    private sealed class RecordingServer : IDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly CancellationTokenSource _stop = new();
        private readonly bool _stampHandler;
        private long _bytesReceived;

        public RecordingServer(bool stampHandler = true)
        {
            _stampHandler = stampHandler;
            _listener.Start();
            _ = AcceptAsync();
        }

        public System.Collections.Concurrent.ConcurrentQueue<string> Requests { get; } = new();

        /// <summary>The bytes of every whole request received (head and body).</summary>
        public long BytesReceived => Interlocked.Read(ref _bytesReceived);

        public Uri Url(string path) => new($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}{path}");

        public void Dispose()
        {
            _stop.Cancel();
            _listener.Stop();
            _stop.Dispose();
        }

        private async Task AcceptAsync()
        {
            try
            {
                while (!_stop.IsCancellationRequested)
                {
                    var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                    _ = ServeAsync(client);
                }
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
            }
        }

        private async Task ServeAsync(TcpClient client)
        {
            using var _ = client;
            var stream = client.GetStream();
            var buffer = new List<byte>();
            var chunk = new byte[4096];
            try
            {
                while (true)
                {
                    var headEnd = IndexOf(buffer, "\r\n\r\n"u8.ToArray());
                    if (headEnd < 0)
                    {
                        var n = await stream.ReadAsync(chunk, _stop.Token);
                        if (n == 0)
                        {
                            return;
                        }
                        buffer.AddRange(chunk.AsSpan(0, n).ToArray());
                        continue;
                    }
                    var head = Encoding.ASCII.GetString(buffer.GetRange(0, headEnd + 4).ToArray());
                    var length = head.Split("\r\n").Where(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
                        .Select(l => int.Parse(l[15..].Trim(), System.Globalization.CultureInfo.InvariantCulture)).FirstOrDefault();
                    while (buffer.Count < headEnd + 4 + length)
                    {
                        var n = await stream.ReadAsync(chunk, _stop.Token);
                        if (n == 0)
                        {
                            return;
                        }
                        buffer.AddRange(chunk.AsSpan(0, n).ToArray());
                    }
                    var handlerStart = DateTimeOffset.UtcNow;
                    Requests.Enqueue(Encoding.UTF8.GetString(buffer.GetRange(0, headEnd + 4 + length).ToArray()));
                    Interlocked.Add(ref _bytesReceived, headEnd + 4 + length);
                    buffer.RemoveRange(0, headEnd + 4 + length);
                    var timing = _stampHandler ? $"{ServerTiming.HeaderName}: {ServerTiming.Format(handlerStart, TimeSpan.FromMilliseconds(5))}\r\n" : "";
                    var response = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n{timing}\r\nok");
                    await stream.WriteAsync(response, _stop.Token);
                }
            }
            catch (Exception e) when (e is OperationCanceledException or IOException or ObjectDisposedException)
            {
            }
        }

        private static int IndexOf(List<byte> haystack, byte[] needle)
        {
            for (var i = 0; i + needle.Length <= haystack.Count; i++)
            {
                var match = true;
                for (var j = 0; j < needle.Length && match; j++)
                {
                    match = haystack[i + j] == needle[j];
                }
                if (match)
                {
                    return i;
                }
            }
            return -1;
        }
    }
}
