using System.Globalization;
using Tplab.Common;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>
/// One request of an app's <c>.http</c> file. <see cref="AbortAfter"/>: the client gives up this long after sending (the
/// cancellation path); <see cref="Observes"/>: a read of what the app did (a counter, a folder), sent after each batch to
/// compare side effects, never counted as an endpoint.
/// </summary>
internal sealed record ProbeRequest(string Name, string Method, string PathAndQuery, IReadOnlyList<KeyValuePair<string, string>> Headers, string? Body, TimeSpan? AbortAfter, bool Observes)
{
    public override string ToString() => $"{Method} {PathAndQuery}" + (AbortAfter is { } a ? $" (aborted after {a.TotalMilliseconds.ToString("0", CultureInfo.InvariantCulture)} ms)" : "");
}

/// <summary>
/// Reads the requests of a <c>.http</c> file, the format teams keep beside their API for the editor's REST client
/// (Visual Studio, VS Code's REST Client, Rider): <c>@host = …</c> variables, requests separated by <c>###</c>, a
/// request line, headers, a blank line and the body. Every URL starts with <c>{{host}}</c> (the harness points it at each
/// app). Two comment tags the harness reads, ignored by the editors: <c># @abort-after 50ms</c> and <c># @observe</c>.
/// </summary>
internal static class HttpFile
{
    public static IReadOnlyList<ProbeRequest> Read(string path)
    {
        var variables = new Dictionary<string, string>(StringComparer.Ordinal);
        var requests = new List<ProbeRequest>();
        // A line starting with ### ends a request (the rest of it is a comment).
        var blocks = new List<List<string>> { new() };
        foreach (var line in File.ReadAllText(path).ReplaceLineEndings("\n").Split('\n').Select(l => l.TrimEnd()))
        {
            if (line.StartsWith("###", StringComparison.Ordinal))
            {
                blocks.Add([]);
            }
            else
            {
                blocks[^1].Add(line);
            }
        }
        foreach (var lines in blocks)
        {
            string? name = null;
            TimeSpan? abort = null;
            var observes = false;
            var i = 0;
            for (; i < lines.Count && (lines[i].Length == 0 || lines[i].StartsWith('#') || lines[i].StartsWith("//", StringComparison.Ordinal) || lines[i].StartsWith('@')); i++)
            {
                var line = lines[i].TrimStart('#', '/', ' ');
                if (lines[i].StartsWith('@') && line.Split('=', 2) is [var key, var value])
                {
                    variables[key.Trim().TrimStart('@')] = value.Trim();
                }
                else if (line.StartsWith("@name ", StringComparison.Ordinal))
                {
                    name = line["@name ".Length..].Trim();
                }
                else if (line.StartsWith("@abort-after ", StringComparison.Ordinal))
                {
                    abort = DurationText.Parse(line["@abort-after ".Length..].Trim(), "@abort-after");
                }
                else if (line == "@observe")
                {
                    observes = true;
                }
            }
            if (i == lines.Count)
            {
                continue;
            }
            var parts = lines[i].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var url = parts.Length < 2 ? "" : Substitute(parts[1], variables);
            var host = Substitute("{{host}}", variables);
            if (url.Length == 0 || !url.StartsWith(host, StringComparison.Ordinal))
            {
                throw new InvalidDataException($"{path}: '{lines[i]}' is not METHOD {{{{host}}}}/path");
            }
            var headers = new List<KeyValuePair<string, string>>();
            for (i++; i < lines.Count && lines[i].Length > 0; i++)
            {
                var colon = lines[i].IndexOf(':', StringComparison.Ordinal);
                if (colon <= 0)
                {
                    throw new InvalidDataException($"{path}: '{lines[i]}' is not a header (Name: value)");
                }
                headers.Add(KeyValuePair.Create(lines[i][..colon].Trim(), Substitute(lines[i][(colon + 1)..].Trim(), variables)));
            }
            var body = string.Join('\n', lines.Skip(i + 1)).Trim();
            var pathAndQuery = "/" + url[host.Length..].TrimStart('/');
            requests.Add(new ProbeRequest(name ?? $"{parts[0]} {pathAndQuery}", parts[0], pathAndQuery, headers, body.Length == 0 ? null : body, abort, observes));
        }
        return requests;
    }

    private static string Substitute(string text, Dictionary<string, string> variables)
    {
        foreach (var (key, value) in variables)
        {
            text = text.Replace("{{" + key + "}}", value, StringComparison.Ordinal);
        }
        return text;
    }
}
