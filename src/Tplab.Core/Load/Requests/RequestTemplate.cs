using System.Text;

namespace Tplab.Load.Requests;

/// <summary>
/// One kind of request a load sends, as a client sends it: method, URL, headers and body.
/// A load with several templates sends each in proportion to its <see cref="Weight"/> (vegeta's targets, a lab plan's endpoints).
/// </summary>
public sealed record RequestTemplate(
    string Method,
    Uri Url,
    IReadOnlyList<KeyValuePair<string, string>> Headers,
    ReadOnlyMemory<byte> Body,
    int Weight = 1,
    string? Name = null)
{
    /// <summary>A plain GET of <paramref name="url"/> with no headers and no body.</summary>
    public static RequestTemplate Get(Uri url) => new("GET", url, [], ReadOnlyMemory<byte>.Empty);

    /// <summary>How reports name this template: its <see cref="Name"/>, or "METHOD /path?query".</summary>
    public string Label => Name ?? $"{Method} {Url.PathAndQuery}";

}
