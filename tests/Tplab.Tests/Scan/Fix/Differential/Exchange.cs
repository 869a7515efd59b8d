using System.Globalization;
using System.Text;
using Tplab.Common;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>
/// Sends one request to an app many times at once and keeps the answers as text ("200 body", the values new on every
/// request masked by <see cref="PerRequestValues"/>, or what went wrong without an answer), sorted so that two apps answering the same set in another order compare equal. An aborted
/// request is cancelled by the client its delay after it was sent (<see cref="SentSignalContent"/>): the connection is
/// closed mid-request, as a browser or a gateway does, and its answer is "aborted" (or the answer, when it came first).
/// </summary>
internal static class Exchange
{
    /// <summary>How many copies of a request go at once: more than the pool's threads on a small machine, so a blocking version queues.</summary>
    public const int Concurrency = 16;

    private static readonly TimeSpan AnswerLimit = TimeSpan.FromSeconds(60);

    public static async Task<IReadOnlyList<string>> SendAsync(HttpClient client, Uri baseAddress, ProbeRequest request, int copies, CancellationToken ct)
    {
        var answers = await Task.WhenAll(Enumerable.Range(0, copies).Select(_ => OneAsync(client, baseAddress, request, ct)));
        return [.. answers.Order(StringComparer.Ordinal)];
    }

    /// <summary>The answer to one request, as text.</summary>
    public static async Task<string> OneAsync(HttpClient client, Uri baseAddress, ProbeRequest request, CancellationToken ct)
    {
        using var message = new HttpRequestMessage(new HttpMethod(request.Method), new Uri(baseAddress, request.PathAndQuery.TrimStart('/')));
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
        limit.CancelAfter(AnswerLimit);
        if (request.AbortAfter is { } abort)
        {
            // The abort's clock starts once the request is sent: the app always receives it, whatever the machine's load.
            message.Content = new SentSignalContent(request.Body, () => limit.CancelAfter(abort));
        }
        else if (request.Body is not null)
        {
            message.Content = new StringContent(request.Body, Encoding.UTF8);
        }
        foreach (var (name, value) in request.Headers)
        {
            if (!message.Headers.TryAddWithoutValidation(name, value))
            {
                message.Content ??= new ByteArrayContent([]);
                message.Content.Headers.Remove(name);
                message.Content.Headers.TryAddWithoutValidation(name, value);
            }
        }
        try
        {
            using var response = await client.SendAsync(message, limit.Token);
            var body = await response.Content.ReadAsStringAsync(limit.Token);
            return ((int)response.StatusCode).ToString(CultureInfo.InvariantCulture) + " " + PerRequestValues.Mask(body);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return request.AbortAfter is null ? "no answer within " + DurationText.Format(AnswerLimit) : "aborted";
        }
        catch (HttpRequestException e)
        {
            return "no answer: " + e.HttpRequestError.ToString();
        }
    }
}
