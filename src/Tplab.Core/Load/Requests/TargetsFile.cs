using Tplab.Common;

namespace Tplab.Load.Requests;

/// <summary>
/// vegeta's http targets format, so a vegeta targets file runs as it is: targets separated by blank lines, each a
/// <c>METHOD URL</c> line, then <c>Name: value</c> header lines, then optionally <c>@path</c> naming the body file
/// (read relative to the current directory, as vegeta does). Lines starting with <c>#</c> are comments.
/// Every problem is a usage error naming the file and line; bodies are read now, before anything is sent.
/// </summary>
public static class TargetsFile
{
    /// <summary>Most targets one file may hold (each keeps its own figures).</summary>
    public const int MaxTargets = 1000;

    /// <summary>Reads the targets in <paramref name="path"/>; <paramref name="extraHeaders"/> (from -H) go on every target.</summary>
    public static IReadOnlyList<RequestTemplate> Load(string path, IReadOnlyList<KeyValuePair<string, string>> extraHeaders)
    {
        var text = InputFile.ReadText(path, "the targets file", InputLimit.Targets);
        return Parse(text, path, extraHeaders, ReadBody);
    }

    /// <summary>Parses targets from <paramref name="text"/>; <paramref name="readBody"/> reads an <c>@path</c> body.</summary>
    public static IReadOnlyList<RequestTemplate> Parse(
        string text, string source, IReadOnlyList<KeyValuePair<string, string>> extraHeaders, Func<string, byte[]> readBody)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentNullException.ThrowIfNull(readBody);
        var targets = new List<RequestTemplate>();
        var lines = text.ReplaceLineEndings("\n").Split('\n');
        var i = 0;
        while (i < lines.Length)
        {
            var line = lines[i].Trim();
            if (line.Length == 0 || line.StartsWith('#'))
            {
                i++;
                continue;
            }
            var at = $"{source}:{i + 1}";
            var space = line.IndexOf(' ', StringComparison.Ordinal);
            if (space <= 0 || !Uri.TryCreate(line[(space + 1)..].Trim(), UriKind.Absolute, out var url) || url.Scheme is not ("http" or "https"))
            {
                throw TplabException.Usage($"{at}: expected 'METHOD http://host/path', got '{line}'");
            }
            var method = line[..space].ToUpperInvariant();
            var headers = new List<KeyValuePair<string, string>>(extraHeaders);
            var body = ReadOnlyMemory<byte>.Empty;
            i++;
            while (i < lines.Length && lines[i].Trim().Length > 0)
            {
                var next = lines[i].Trim();
                if (next.StartsWith('@'))
                {
                    body = ReadBodyAt(next[1..], $"{source}:{i + 1}", readBody);
                }
                else if (!next.StartsWith('#'))
                {
                    headers.Add(RequestText.ParseHeader(next, $"{source}:{i + 1}"));
                }
                i++;
            }
            targets.Add(new RequestTemplate(method, url, headers, body));
            if (targets.Count > MaxTargets)
            {
                throw TplabException.Usage($"{source} holds more than {MaxTargets} targets");
            }
        }
        if (targets.Count == 0)
        {
            throw TplabException.Usage($"{source} holds no targets (expected 'METHOD URL' lines)");
        }
        return targets;
    }

    private static byte[] ReadBodyAt(string path, string at, Func<string, byte[]> readBody)
    {
        try
        {
            return readBody(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw TplabException.Usage($"{at}: cannot read the body file {path}: {e.Message}");
        }
    }

    private static byte[] ReadBody(string path) => InputFile.ReadBytes(path, "the body file", InputLimit.Body);
}
