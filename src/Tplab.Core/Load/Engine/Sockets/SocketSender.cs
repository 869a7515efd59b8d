using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Tplab.Common;
using Tplab.Load.Engine.Http1;
using Tplab.Load.Requests;

namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// The fast engine: plain HTTP/1.1 over non-blocking sockets on a few event-loop threads (one per core, as wrk
/// runs one per thread), each request's bytes built once per template, responses parsed in place, and no
/// allocation per request (operations are pooled, continuations run on the loop). Linux only, one endpoint
/// (every target on the same scheme, host and port), http only: <see cref="SenderFactory"/> picks HttpClient otherwise.
/// Timing is the same as <see cref="HttpSender"/>'s: start when the request is taken up (before any connect),
/// first byte at the first byte of the response, end at its last byte.
/// </summary>
public sealed class SocketSender : ISender
{
    internal const string Interrupted = "interrupted before the response ended";

    private readonly LoadClock _clock;
    private readonly RequestBytes[] _requests;
    private readonly RequestMix _mix;
    private readonly EventLoop[] _loops;
    private readonly ConcurrentQueue<SendOperation> _pool = new();
    private CancellationToken _abortToken;
    private CancellationTokenRegistration _onAbort;
    private volatile bool _aborted;
    private int _next;
    private string? _server;

    /// <summary>A sender for <paramref name="options"/>' targets on <paramref name="loops"/> event loops (default: one per core the process may use).</summary>
    public SocketSender(LoadOptions options, LoadClock clock, int? loops = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(clock);
        if (!Native.IsSupported)
        {
            throw new PlatformNotSupportedException("the sockets engine runs on Linux (x64, arm64)");
        }
        var targets = options.EffectiveTargets;
        if (!CanSend(targets))
        {
            throw new ArgumentException("the sockets engine sends plain http:// to one host and port", nameof(options));
        }
        _clock = clock;
        KeepAlive = options.KeepAlive;
        Timeout = options.Timeout;
        TimeoutMessage = $"timeout after {DurationText.Format(options.Timeout)}";
        _requests = [.. targets.Select(t => RequestBytes.Build(t, options.KeepAlive))];
        _mix = new RequestMix(targets);
        Endpoint = Resolve(targets[0].Url);
        var count = loops ?? Math.Max(1, Environment.ProcessorCount);
        if (!options.IsOpenLoop)
        {
            count = Math.Min(count, options.Concurrency);
        }
        else if (loops is null)
        {
            // Open loop: one loop per RatePerLoop of the schedule's peak. A paced loop's cost per request is mostly its
            // wake-ups (at each send's time, at each response), which more loops multiply rather than share.
            count = Math.Min(count, Math.Max(1, (int)Math.Ceiling(PeakRate(options) / RatePerLoop)));
        }
        _loops = new EventLoop[count];
        for (var i = 0; i < count; i++)
        {
            _loops[i] = new EventLoop(this, i);
        }
    }

    /// <inheritdoc />
    public string Engine => "sockets";

    /// <inheritdoc />
    public string? ServerSoftware => Volatile.Read(ref _server);

    /// <summary>
    /// Open-loop requests may come 2 ms early: the event loop sends each at its time (<see cref="EventLoop"/>), and the
    /// pacer wakes about once a millisecond at any rate instead of once per request.
    /// </summary>
    public TimeSpan Lead => TimeSpan.FromMilliseconds(2);

    internal IPEndPoint Endpoint { get; }

    /// <summary>How many event loops send.</summary>
    internal int LoopCount => _loops.Length;

    internal bool KeepAlive { get; }

    internal TimeSpan Timeout { get; }

    internal string TimeoutMessage { get; }

    internal bool Aborted => _aborted;

    internal TimeSpan Now => _clock.Now;

    /// <summary>
    /// Open-loop requests a second one event loop takes (measured on 2 cores shared with the target, BENCHMARKS.md: at
    /// 20,000/s one loop used 22% less CPU than two and sent on time more often; one loop held 40,000/s).
    /// </summary>
    internal const double RatePerLoop = 40_000;

    private static double PeakRate(LoadOptions options) =>
        options.Stages.Aggregate(options.Rate ?? 0, (peak, stage) => Math.Max(peak, stage.Rate));

    /// <summary>True when this engine can send <paramref name="targets"/>: Linux, plain http, one host and port.</summary>
    public static bool CanSend(IReadOnlyList<RequestTemplate> targets)
    {
        ArgumentNullException.ThrowIfNull(targets);
        return Native.IsSupported && targets.Count > 0
            && targets.All(t => t.Url.Scheme == Uri.UriSchemeHttp && string.Equals(t.Url.Authority, targets[0].Url.Authority, StringComparison.OrdinalIgnoreCase));
    }

    /// <inheritdoc />
    public ValueTask<RequestRecord> SendAsync(TimeSpan scheduled, int user, CancellationToken abort)
    {
        if (abort.CanBeCanceled && abort != _abortToken)
        {
            // The loops share one abort token: hook it once; the loops then fail what is in flight.
            _abortToken = abort;
            _onAbort = abort.UnsafeRegister(static s => ((SocketSender)s!).Abort(), this);
        }
        var op = _pool.TryDequeue(out var pooled) ? pooled : new SendOperation(this);
        op.Scheduled = scheduled;
        op.User = user;
        op.Target = _mix.Next();
        op.Retried = false;
        var task = op.Task;
        var loop = user >= 0 ? _loops[user % _loops.Length] : _loops[(int)((uint)Interlocked.Increment(ref _next) % (uint)_loops.Length)];
        loop.Post(op);
        return task;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _onAbort.Dispose();
        _aborted = true;
        foreach (var loop in _loops)
        {
            loop.Dispose();
        }
    }

    internal void Return(SendOperation op) => _pool.Enqueue(op);

    internal RequestBytes Request(int target) => _requests[target];

    internal RequestRecord ErrorRecord(SendOperation op, string error)
    {
        var end = _clock.Now;
        return new RequestRecord(op.Scheduled, op.Start, op.Start, end, 0, 0, 0, 0, error, op.User, op.Target);
    }

    internal RequestRecord ResponseRecord(SendOperation op, ResponseParser parser, long bytesOut, TimeSpan end)
    {
        if (parser.Server is { } server)
        {
            Interlocked.CompareExchange(ref _server, TerminalText.Escape(server), null);
        }
        TimeSpan? handlerStart = null, handlerEnd = null;
        if (parser.HasHandlerTiming)
        {
            handlerStart = _clock.FromUnixMilliseconds(parser.HandlerStartUnixMs);
            handlerEnd = handlerStart + TimeSpan.FromMilliseconds(parser.HandlerDurationMs);
        }
        return new RequestRecord(op.Scheduled, op.Start, op.FirstByte, end, parser.Status, parser.BytesIn, parser.BodyBytes, bytesOut,
            null, op.User, op.Target, handlerStart, handlerEnd);
    }

    private void Abort()
    {
        _aborted = true;
        foreach (var loop in _loops)
        {
            loop.Wake();
        }
    }

    // Once, before the load: a name that does not resolve fails every connect with the reason.
    private static IPEndPoint Resolve(Uri url)
    {
        var host = url.IdnHost.Trim('[', ']');
        if (!IPAddress.TryParse(host, out var address))
        {
            var addresses = Dns.GetHostAddresses(host);
            address = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.FirstOrDefault()
                ?? throw new SocketException((int)SocketError.HostNotFound);
        }
        return new IPEndPoint(address, url.Port);
    }
}
