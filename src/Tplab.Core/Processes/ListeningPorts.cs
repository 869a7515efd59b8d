using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// The TCP ports processes listen on, from /proc: their sockets (<c>/proc/PID/fd</c> → <c>socket:[INODE]</c>) matched
/// against the listening entries of <c>/proc/PID/net/tcp</c> and <c>tcp6</c> (state 0A). How tplab finds the address of
/// a service that does not say where it listens (an app that logs at Warning never prints "Now listening on:").
/// </summary>
public static class ListeningPorts
{
    private const string Listen = "0A";

    /// <summary>The ports any of <paramref name="processIds"/> listens on, lowest first; empty when none or unreadable.</summary>
    public static IReadOnlyList<int> Of(IEnumerable<int> processIds)
    {
        var ports = new SortedSet<int>();
        foreach (var pid in processIds)
        {
            var sockets = SocketInodes(pid);
            if (sockets.Count == 0)
            {
                continue;
            }
            foreach (var table in new[] { "tcp", "tcp6" })
            {
                foreach (var (inode, port) in Listening($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/net/{table}"))
                {
                    if (sockets.Contains(inode))
                    {
                        ports.Add(port);
                    }
                }
            }
        }
        return [.. ports];
    }

    private static HashSet<string> SocketInodes(int pid)
    {
        var inodes = new HashSet<string>(StringComparer.Ordinal);
        try
        {
            foreach (var fd in Directory.EnumerateFiles($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/fd"))
            {
                var target = new FileInfo(fd).LinkTarget;
                if (target is not null && target.StartsWith("socket:[", StringComparison.Ordinal) && target.EndsWith(']'))
                {
                    inodes.Add(target["socket:[".Length..^1]);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Gone, or not ours to read.
        }
        return inodes;
    }

    // "sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode": local_address is HEXIP:HEXPORT.
    private static IEnumerable<(string Inode, int Port)> Listening(string table)
    {
        string[] lines;
        try
        {
            lines = File.ReadAllLines(table);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            yield break;
        }
        foreach (var line in lines.Skip(1))
        {
            var f = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (f.Length > 9 && f[3] == Listen && f[1].LastIndexOf(':') is var colon and > 0
                && int.TryParse(f[1].AsSpan(colon + 1), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var port))
            {
                yield return (f[9], port);
            }
        }
    }
}
