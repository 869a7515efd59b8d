using System.Net;
using System.Text;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>
/// A request's body (possibly empty) that calls <paramref name="sent"/> once the request's head and body are on the
/// wire: the moment an aborted request's clock starts. Started before the send instead, a short abort (5 ms) could fire
/// while the connection was still opening, and the request would never reach the app: a difference in what the app
/// did that says nothing about fix. The body has no length (chunked), so the handler always hands it the stream, even
/// when empty; a plain text body keeps the <c>text/plain; charset=utf-8</c> type the other requests' content has.
/// </summary>
internal sealed class SentSignalContent : HttpContent
{
    private readonly byte[] _body;
    private readonly Action _sent;

    public SentSignalContent(string? body, Action sent)
    {
        _body = body is null ? [] : Encoding.UTF8.GetBytes(body);
        _sent = sent;
        if (body is not null)
        {
            Headers.ContentType = new("text/plain") { CharSet = "utf-8" };
        }
    }

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
    {
        // The handler has buffered the head; the flush puts it on the wire before the body (Kestrel dispatches on it).
        await stream.FlushAsync();
        await stream.WriteAsync(_body);
        await stream.FlushAsync();
        _sent();
    }

    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}
