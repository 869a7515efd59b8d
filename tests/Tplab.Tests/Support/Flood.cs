using System.Diagnostics;

namespace Tplab.Tests.Support;

/// <summary>
/// Test scaffolding, not the load generator: a bounded closed-loop flood of one URL, <c>concurrency</c> loops each
/// sending the next request when the previous one ends (or times out), until disposed or the duration passes.
/// Its loops are async, so they cost the test process few threads; the target's pool is what starves.
/// </summary>
internal sealed class Flood : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop;
    private readonly Task[] _loops;
    private long _completed;
    private long _failed;

    private Flood(Uri url, int concurrency, TimeSpan duration, TimeSpan requestTimeout)
    {
        _stop = new CancellationTokenSource(duration);
        StartedAt = Stopwatch.GetTimestamp();
        var handler = new SocketsHttpHandler { MaxConnectionsPerServer = concurrency, PooledConnectionLifetime = Timeout.InfiniteTimeSpan };
        var client = new HttpClient(handler) { Timeout = requestTimeout };
        _loops = Enumerable.Range(0, concurrency).Select(_ => Task.Run(() => LoopAsync(client, url))).ToArray();
    }

    /// <summary>Stopwatch timestamp of the first request.</summary>
    public long StartedAt { get; }

    /// <summary>Requests answered with success so far.</summary>
    public long Completed => Interlocked.Read(ref _completed);

    /// <summary>Requests that failed or timed out so far.</summary>
    public long Failed => Interlocked.Read(ref _failed);

    public static Flood Start(Uri url, int concurrency, TimeSpan duration, TimeSpan? requestTimeout = null) =>
        new(url, concurrency, duration, requestTimeout ?? TimeSpan.FromSeconds(30));

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await Task.WhenAll(_loops);
        _stop.Dispose();
    }

    private async Task LoopAsync(HttpClient client, Uri url)
    {
        while (!_stop.IsCancellationRequested)
        {
            try
            {
                using var response = await client.GetAsync(url, _stop.Token);
                Interlocked.Increment(ref response.IsSuccessStatusCode ? ref _completed : ref _failed);
            }
            catch (OperationCanceledException) when (_stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
            {
                Interlocked.Increment(ref _failed);
            }
        }
    }
}
