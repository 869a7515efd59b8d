using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Tplab.Load.Requests;

namespace Tplab.Load.Engine.Http1;

/// <summary>
/// A template's whole HTTP/1.1 request (request line, Host, the template's headers, Content-Length, Connection,
/// the blank line and the body) built once before the load, in pinned memory, so every send is one call with no
/// allocation and no formatting. Headers go out as given, in order; Host and Content-Length are added only when
/// the template does not carry them.
/// </summary>
internal sealed class RequestBytes
{
    private RequestBytes(byte[] bytes, bool head)
    {
        Bytes = bytes;
        Address = Marshal.UnsafeAddrOfPinnedArrayElement(bytes, 0);
        IsHead = head;
    }

    /// <summary>The bytes, pinned for the life of the object.</summary>
    public byte[] Bytes { get; }

    /// <summary>Where they start in memory.</summary>
    public nint Address { get; }

    /// <summary>How many bytes go out.</summary>
    public int Length => Bytes.Length;

    /// <summary>A HEAD request: its response has no body whatever its headers say.</summary>
    public bool IsHead { get; }

    /// <summary>Builds the request for <paramref name="template"/>; <paramref name="keepAlive"/> false adds <c>Connection: close</c>.</summary>
    public static RequestBytes Build(RequestTemplate template, bool keepAlive)
    {
        var headBytes = Encoding.Latin1.GetBytes(Head(template, keepAlive));
        var bytes = GC.AllocateUninitializedArray<byte>(headBytes.Length + template.Body.Length, pinned: true);
        headBytes.CopyTo(bytes, 0);
        template.Body.Span.CopyTo(bytes.AsSpan(headBytes.Length));
        return new RequestBytes(bytes, string.Equals(template.Method, "HEAD", StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>
    /// How many bytes <see cref="Build"/> puts on the wire for <paramref name="template"/>: the BytesOut of every engine
    /// (HttpClient does not expose the bytes it writes, so its engine counts these; ab and JMeter report them).
    /// </summary>
    public static long WireLength(RequestTemplate template, bool keepAlive) =>
        Encoding.Latin1.GetByteCount(Head(template, keepAlive)) + template.Body.Length;

    // The request line and headers up to the blank line, one definition for both engines.
    private static string Head(RequestTemplate template, bool keepAlive)
    {
        ArgumentNullException.ThrowIfNull(template);
        var head = new StringBuilder()
            .Append(template.Method).Append(' ').Append(template.Url.PathAndQuery).Append(" HTTP/1.1\r\n");
        if (!Has(template, "Host"))
        {
            head.Append("Host: ").Append(template.Url.Authority).Append("\r\n");
        }
        foreach (var (name, value) in template.Headers)
        {
            head.Append(name).Append(": ").Append(value).Append("\r\n");
        }
        // A body needs its length; so do POST and PUT without one (RFC 9110 §8.6: a user agent should send 0).
        if (!Has(template, "Content-Length") && !Has(template, "Transfer-Encoding")
            && (!template.Body.IsEmpty || template.Method is "POST" or "PUT" or "PATCH"))
        {
            head.Append("Content-Length: ").Append(template.Body.Length.ToString(CultureInfo.InvariantCulture)).Append("\r\n");
        }
        if (!keepAlive && !Has(template, "Connection"))
        {
            head.Append("Connection: close\r\n");
        }
        return head.Append("\r\n").ToString();
    }

    private static bool Has(RequestTemplate template, string header) =>
        template.Headers.Any(h => string.Equals(h.Key, header, StringComparison.OrdinalIgnoreCase));
}
