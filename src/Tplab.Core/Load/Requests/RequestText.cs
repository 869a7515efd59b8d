using System.Text;
using Tplab.Common;

namespace Tplab.Load.Requests;

/// <summary>The command line's words for a request: <c>-H 'Name: value'</c> and a body given inline or as <c>@file</c>.</summary>
public static class RequestText
{
    /// <summary>"Name: value" as a header; a usage error naming <paramref name="where"/> otherwise.</summary>
    public static KeyValuePair<string, string> ParseHeader(string text, string where)
    {
        ArgumentNullException.ThrowIfNull(text);
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        var name = colon > 0 ? text[..colon].Trim() : "";
        if (name.Length == 0 || name.Any(c => c <= ' ' || c >= 127))
        {
            throw TplabException.Usage($"{where}: a header must be 'Name: value', got '{text}'");
        }
        return new(name, text[(colon + 1)..].Trim());
    }

    /// <summary>
    /// What the command line asks to send: the URL with <c>-X</c>, <c>-H</c> and <c>-d</c>, or a vegeta targets file
    /// (with <c>-H</c> on every target). Files are read now: a missing body or targets file stops the run before anything
    /// is sent. The URL is parsed here and checked with every target by <see cref="LoadOptions.Validate"/>.
    /// </summary>
    public static IReadOnlyList<RequestTemplate> Templates(string? url, string method, IReadOnlyList<string> headers, string? body, string? targetsFile)
    {
        ArgumentNullException.ThrowIfNull(headers);
        var parsed = headers.Select(h => ParseHeader(h, "--header")).ToList();
        if (targetsFile is not null)
        {
            if (url is not null || body is not null)
            {
                throw TplabException.Usage("give either a URL (with -X, -d) or --targets FILE, not both");
            }
            return TargetsFile.Load(targetsFile, parsed);
        }
        if (url is null)
        {
            throw TplabException.Usage("give the URL to load, or --targets FILE");
        }
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri))
        {
            throw TplabException.Usage($"the URL must be an absolute http:// or https:// URL, got '{url}'");
        }
        var content = body is null ? ReadOnlyMemory<byte>.Empty : ReadBody(body, "--body");
        return [new RequestTemplate((method ?? "GET").ToUpperInvariant(), uri, parsed, content)];
    }

    /// <summary>A body: the text itself (UTF-8), or the bytes of the file after <c>@</c>; read now, so a missing file stops the run before anything is sent.</summary>
    public static ReadOnlyMemory<byte> ReadBody(string text, string where)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!text.StartsWith('@'))
        {
            return Encoding.UTF8.GetBytes(text);
        }
        return InputFile.ReadBytes(text[1..], $"{where}: the body file", InputLimit.Body);
    }
}
