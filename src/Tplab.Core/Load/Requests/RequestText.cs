using System.Text;
using Tplab.Common;

namespace Tplab.Load.Requests;

/// <summary>The command line's words for a request: <c>-H 'Name: value'</c> and a body given inline or as <c>@file</c>.</summary>
public static class RequestText
{
    /// <summary>Most bytes a body may hold (it is kept in memory and sent with every request).</summary>
    public const int MaxBodyBytes = 64 * 1024 * 1024;

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

    /// <summary>A body: the text itself (UTF-8), or the bytes of the file after <c>@</c>; read now, so a missing file stops the run before anything is sent.</summary>
    public static ReadOnlyMemory<byte> ReadBody(string text, string where)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!text.StartsWith('@'))
        {
            return Encoding.UTF8.GetBytes(text);
        }
        var path = text[1..];
        try
        {
            var info = new FileInfo(path);
            if (info.Exists && info.Length > MaxBodyBytes)
            {
                throw TplabException.Usage($"{where}: the body file {path} is larger than 64 MB");
            }
            return File.ReadAllBytes(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw TplabException.Usage($"{where}: cannot read the body file {path}: {e.Message}");
        }
    }
}
