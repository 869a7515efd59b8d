using System.Buffers;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using Tplab.Common;
using Tplab.Load.Requests;

namespace Tplab.Load.Engine;

/// <summary>
/// How to send (never when): one request of the load's templates (picked by a <see cref="RequestMix"/>) over a
/// shared <see cref="SocketsHttpHandler"/>, timed on the run's clock, its outcome turned into a <see cref="RequestRecord"/>
/// with the app's handler timing when it sends one. Never throws for a request that fails: a refused
/// connection, a timeout or an interruption is an error in the record.
/// </summary>
public sealed class HttpSender : ISender
{
    private const int BodyBufferSize = 16 * 1024;

    private readonly HttpMessageInvoker _invoker;
    private readonly IReadOnlyList<RequestTemplate> _targets;
    private readonly RequestMix _mix;
    private readonly bool _keepAlive;
    private readonly TimeSpan _timeout;
    private readonly LoadClock _clock;
    private readonly long[] _requestBytes;
    private readonly System.Collections.Concurrent.ConcurrentBag<CancellationTokenSource> _timeouts = [];
    private string? _server;

    /// <summary>A sender for <paramref name="options"/>' targets, keep-alive and timeout, timed on <paramref name="clock"/>.</summary>
    public HttpSender(LoadOptions options, LoadClock clock)
    {
        ArgumentNullException.ThrowIfNull(options);
        _targets = options.EffectiveTargets;
        _mix = new RequestMix(_targets);
        _keepAlive = options.KeepAlive;
        _timeout = options.Timeout;
        _clock = clock;
        var handler = new SocketsHttpHandler
        {
            // One connection per user or in-flight request: the pool must never be what limits the load.
            MaxConnectionsPerServer = int.MaxValue,
            UseCookies = false,
            // A proxy only ever stands between tplab and a remote host; loopback goes direct.
            UseProxy = options.AllowRemote,
            AllowAutoRedirect = false,
            AutomaticDecompression = DecompressionMethods.None,
            ConnectTimeout = options.Timeout,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(2),
        };
        if (options.Insecure)
        {
            // --insecure: a self-signed certificate on loopback (dotnet dev-certs, a test app) is accepted as it is.
            handler.SslOptions = new System.Net.Security.SslClientAuthenticationOptions { RemoteCertificateValidationCallback = static (_, _, _, _) => true };
        }
        _invoker = new HttpMessageInvoker(handler, disposeHandler: true);
        // What goes on the wire, for ab's and JMeter's byte counts (HttpClient does not expose raw bytes): counted by
        // the sockets engine's builder, so both engines report the same BytesOut for the same requests.
        _requestBytes = [.. _targets.Select(t => Http1.RequestBytes.WireLength(t, _keepAlive))];
    }

    /// <inheritdoc />
    public string Engine => "httpclient";

    /// <inheritdoc />
    public string? ServerSoftware => Volatile.Read(ref _server);

    /// <inheritdoc />
    ValueTask<RequestRecord> ISender.SendAsync(TimeSpan scheduled, int user, CancellationToken abort) => new(SendAsync(scheduled, user, abort));

    /// <summary>Sends one request scheduled at <paramref name="scheduled"/>; <paramref name="abort"/> ends it as "interrupted".</summary>
    public async Task<RequestRecord> SendAsync(TimeSpan scheduled, int user, CancellationToken abort)
    {
        // Timeout sources are pooled: a fresh linked source and timer per request costs measurable throughput.
        var timeout = _timeouts.TryTake(out var pooled) ? pooled : new CancellationTokenSource();
        timeout.CancelAfter(_timeout);
        using var onAbort = abort.UnsafeRegister(static s => ((CancellationTokenSource)s!).Cancel(), timeout);
        var target = _mix.Next();
        using var request = NewRequest(_targets[target], _keepAlive);
        var start = _clock.Now;
        var firstByte = start;
        var status = 0;
        long body = 0;
        long headerBytes = 0;
        TimeSpan? handlerStart = null, handlerEnd = null;
        string? error = null;
        try
        {
            using var response = await _invoker.SendAsync(request, timeout.Token).ConfigureAwait(false);
            firstByte = _clock.Now;
            status = (int)response.StatusCode;
            headerBytes = HeaderBytes(response);
            if (_server is null && response.Headers.Server.Count > 0)
            {
                Interlocked.CompareExchange(ref _server, response.Headers.Server.ToString(), null);
            }
            (handlerStart, handlerEnd) = HandlerTiming(response);
            body = await ReadBodyAsync(response, timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (abort.IsCancellationRequested)
        {
            error = "interrupted before the response ended";
        }
        catch (OperationCanceledException)
        {
            error = $"timeout after {DurationText.Format(_timeout)}";
        }
        catch (HttpRequestException e)
        {
            error = Describe(e);
        }
        catch (IOException e)
        {
            error = "receive: " + Innermost(e).Message;
        }
        var end = _clock.Now;
        // Unhook from abort before the source goes back to the pool, so a late Ctrl+C cannot cancel a reused one.
        onAbort.Dispose();
        if (timeout.TryReset())
        {
            _timeouts.Add(timeout);
        }
        else
        {
            timeout.Dispose();
        }
        return new RequestRecord(scheduled, start, firstByte, end, status, headerBytes + body, body, _requestBytes[target], error, user,
            target, handlerStart, handlerEnd);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _invoker.Dispose();
        while (_timeouts.TryTake(out var cts))
        {
            cts.Dispose();
        }
    }

    private static HttpRequestMessage NewRequest(RequestTemplate template, bool keepAlive)
    {
        var request = new HttpRequestMessage(new HttpMethod(template.Method), template.Url);
        if (!keepAlive)
        {
            request.Headers.ConnectionClose = true;
        }
        if (!template.Body.IsEmpty)
        {
            request.Content = new ReadOnlyMemoryContent(template.Body);
        }
        foreach (var (name, value) in template.Headers)
        {
            // Content-Type and its kin belong to the content; without a body they have nowhere to go but the request.
            if (!request.Headers.TryAddWithoutValidation(name, value))
            {
                request.Content ??= new ReadOnlyMemoryContent(ReadOnlyMemory<byte>.Empty);
                request.Content.Headers.TryAddWithoutValidation(name, value);
            }
        }
        return request;
    }

    private (TimeSpan? Start, TimeSpan? End) HandlerTiming(HttpResponseMessage response)
    {
        if (response.Headers.NonValidated.TryGetValues(ServerTiming.HeaderName, out var values))
        {
            foreach (var value in values)
            {
                if (ServerTiming.TryParseHandler(value, out var startMs, out var durationMs))
                {
                    var start = _clock.FromUnixMilliseconds(startMs);
                    return (start, start + TimeSpan.FromMilliseconds(durationMs));
                }
            }
        }
        return (null, null);
    }

    private static async Task<long> ReadBodyAsync(HttpResponseMessage response, CancellationToken ct)
    {
        var stream = await response.Content.ReadAsStreamAsync(ct).ConfigureAwait(false);
        await using (stream.ConfigureAwait(false))
        {
            var buffer = ArrayPool<byte>.Shared.Rent(BodyBufferSize);
            try
            {
                long total = 0;
                int read;
                while ((read = await stream.ReadAsync(buffer.AsMemory(), ct).ConfigureAwait(false)) > 0)
                {
                    total += read;
                }
                return total;
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    // Status line plus "Name: value\r\n" per header plus the blank line: what ab counts in "Total transferred".
    private static long HeaderBytes(HttpResponseMessage response)
    {
        long bytes = "HTTP/1.1 200 ".Length + (response.ReasonPhrase?.Length ?? 0) + 2 + 2;
        bytes += HeaderBytes(response.Headers.NonValidated) + HeaderBytes(response.Content.Headers.NonValidated);
        return bytes;
    }

    private static long HeaderBytes(HttpHeadersNonValidated headers)
    {
        long bytes = 0;
        foreach (var (name, values) in headers)
        {
            foreach (var value in values)
            {
                bytes += name.Length + 2 + value.Length + 2;
            }
        }
        return bytes;
    }

    private static string Describe(HttpRequestException e)
    {
        var inner = Innermost(e);
        return inner is SocketException s
            ? $"connect: {s.Message}{(e.Message.Contains('(', StringComparison.Ordinal) ? " " + e.Message[e.Message.LastIndexOf('(')..] : "")}"
            : e.HttpRequestError switch
            {
                HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError => "connect: " + inner.Message,
                // An untrusted certificate (self-signed without --insecure) names its reason: "... UntrustedRoot".
                HttpRequestError.SecureConnectionError => "tls: " + inner.Message,
                _ => "receive: " + inner.Message,
            };
    }

    private static Exception Innermost(Exception e)
    {
        while (e.InnerException is not null)
        {
            e = e.InnerException;
        }
        return e;
    }
}
