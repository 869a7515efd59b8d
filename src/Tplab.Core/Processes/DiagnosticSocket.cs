using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// Finds the diagnostic socket a .NET runtime listens on: <c>$TMPDIR/dotnet-diagnostic-{pid}-{key}-socket</c>
/// (dotnet/diagnostics ipc-protocol.md). For a process in another mount namespace (a container seen from the host,
/// or a private /tmp), the socket is under <c>/proc/PID/root/…</c> and named with the pid the process has in its
/// own pid namespace (NSpid), as container monitoring agents and the diagnostics client itself resolve it.
/// </summary>
public static class DiagnosticSocket
{
    /// <summary>The socket's path, or null when the process publishes none where tplab can see it.</summary>
    public static string? Find(int processId)
    {
        foreach (var (folder, pid) in Places(processId))
        {
            var pattern = $"dotnet-diagnostic-{pid.ToString(CultureInfo.InvariantCulture)}-*-socket";
            try
            {
                // The key is the process's start time: a stale socket of an earlier process with the same pid sorts first.
                var found = Directory.EnumerateFileSystemEntries(folder, pattern).Order(StringComparer.Ordinal).LastOrDefault();
                if (found is not null)
                {
                    return found;
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }
        return null;
    }

    /// <summary>Whether the process lives in another mount namespace than tplab (a container, a private /tmp).</summary>
    public static bool IsInOtherMountNamespace(int processId) => ProcessFiles.SharesMountNamespace(processId) == false;

    /// <summary>Where the socket can be, in order; for messages too.</summary>
    public static IEnumerable<(string Folder, int Pid)> Places(int processId)
    {
        var theirTmp = ProcessFiles.EnvironmentVariable(processId, "TMPDIR") is { Length: > 0 } t ? t : "/tmp";
        if (IsInOtherMountNamespace(processId))
        {
            var root = $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/root";
            var nsPid = ProcessFiles.NamespacePid(processId);
            return new[] { root + theirTmp, root + "/tmp" }.Distinct().Select(f => (f, nsPid));
        }
        return new[] { Path.GetTempPath().TrimEnd('/'), theirTmp.TrimEnd('/'), "/tmp" }.Distinct().Select(f => (f, processId));
    }
}
