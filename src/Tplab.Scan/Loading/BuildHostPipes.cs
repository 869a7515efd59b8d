using Tplab.Processes;

namespace Tplab.Scan.Loading;

/// <summary>
/// The pipe each of Roslyn's MSBuild build hosts listens on: a socket <c>/tmp/GUID</c>, named by the argument after the
/// host's dll, which the host creates and leaves behind when it exits (it never disposes its pipe server; .NET would
/// delete the file then). One file per load, in every user's /tmp: removed once the host is gone.
/// </summary>
internal static class BuildHostPipes
{
    /// <summary>Removes the pipes of the build hosts in <paramref name="hosts"/> that have ended; a host still running keeps its own.</summary>
    public static void RemoveEnded(IEnumerable<(int ProcessId, IReadOnlyList<string> CommandLine)> hosts)
    {
        foreach (var (pid, commandLine) in hosts)
        {
            if (ProcessFiles.IsAlive(pid) || Pipe(commandLine) is not { } name)
            {
                continue;
            }
            // Where the host's pipe helper puts it, and the temporary folder it inherits (the same unless TMPDIR is set).
            foreach (var folder in new[] { "/tmp", Path.TrimEndingDirectorySeparator(Path.GetTempPath()) }.Distinct(StringComparer.Ordinal))
            {
                var path = Path.Combine(folder, name);
                try
                {
                    // Only what the host made there: not a folder, nothing written in it.
                    var file = new FileInfo(path);
                    if (file.Exists && file.Length == 0 && file.LinkTarget is null)
                    {
                        file.Delete();
                    }
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    // Someone else's, or gone already.
                }
            }
        }
    }

    // Roslyn's command line: … BUILDHOST.dll PIPE CULTURE; the pipe is a GUID.
    private static string? Pipe(IReadOnlyList<string> commandLine)
    {
        var dll = commandLine.Count - 1;
        while (dll >= 0 && !commandLine[dll].EndsWith(WorkspaceLoader.BuildHostName + ".dll", StringComparison.Ordinal))
        {
            dll--;
        }
        return dll >= 0 && dll + 1 < commandLine.Count && Guid.TryParseExact(commandLine[dll + 1], "D", out _) ? commandLine[dll + 1] : null;
    }
}
