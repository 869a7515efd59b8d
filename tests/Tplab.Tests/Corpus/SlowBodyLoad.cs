using System.Net;

namespace Tplab.Tests.Corpus;

/// <summary>
/// Closed-loop POSTs whose bodies arrive slowly (a supplier uploading over a poor line), for the one corpus case that
/// reads a request body synchronously. tplab's load engine sends whole bodies, so this case has its own small sender.
/// </summary>
internal static class SlowBodyLoad
{
    private const int Lines = 6;
    private static readonly TimeSpan LineEvery = TimeSpan.FromMilliseconds(60);

    /// <summary>Requests completed with success until <paramref name="ct"/> is cancelled; stamps of their ends.</summary>
    public static async Task<IReadOnlyList<DateTimeOffset>> RunAsync(Uri url, int users, CancellationToken ct)
    {
        using var handler = new SocketsHttpHandler { MaxConnectionsPerServer = users, PooledConnectionLifetime = Timeout.InfiniteTimeSpan };
        using var http = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(30) };
        var ends = new List<DateTimeOffset>();
        var loops = Enumerable.Range(0, users).Select(_ => Task.Run(async () =>
        {
            while (!ct.IsCancellationRequested)
            {
                try
                {
                    using var content = new SlowCsvContent();
                    using var response = await http.PostAsync(url, content, ct);
                    if (response.StatusCode == HttpStatusCode.OK)
                    {
                        lock (ends)
                        {
                            ends.Add(DateTimeOffset.UtcNow);
                        }
                    }
                }
                catch (Exception e) when (e is OperationCanceledException or HttpRequestException)
                {
                }
            }
        }, CancellationToken.None)).ToArray();
        await Task.WhenAll(loops);
        return ends;
    }

    private sealed class SlowCsvContent : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
            await SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            for (var line = 0; line < Lines; line++)
            {
                await stream.WriteAsync(System.Text.Encoding.ASCII.GetBytes($"SKU-{line},{line}.99\n"), cancellationToken);
                await stream.FlushAsync(cancellationToken);
                await Task.Delay(LineEvery, cancellationToken);
            }
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
