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
        // The runtime names its socket with its start time (clock ticks since boot, /proc/PID/stat). A socket of an
        // earlier process that had the same pid and died without removing it (kill -9) has another key: in a /tmp
        // with many of those, a shell that happened to reuse such a pid was taken for a .NET process.
        var started = ProcessFiles.StartTicks(processId)?.ToString(CultureInfo.InvariantCulture);
        // No start time because the process is gone: any socket with its pid is a dead process's. A short-lived member
        // of a service's group (the leader's `sleep 1`) that ended between the group's listing and this read, on a pid
        // a killed runtime had used, was taken for the service's runtime (a CI run, under load).
        if (started is null && !ProcessFiles.IsAlive(processId))
        {
            return null;
        }
        var otherNamespace = IsInOtherMountNamespace(processId);
        foreach (var (folder, pid) in Places(processId, otherNamespace))
        {
            // Here, with the start time known, the name is known: one look at that name. Listing the folder instead
            // read every entry of /tmp for each process, where the sockets of killed processes pile up (10,000 entries
            // on a machine that had run the suite for a day: 10 ms a process, half a second to list 67 processes, and
            // `watch --all` lists them every 2 s).
            if (started is not null && !otherNamespace)
            {
                var exact = Path.Combine(folder, Name(pid, started));
                if (File.Exists(exact))
                {
                    return exact;
                }
                continue;
            }
            try
            {
                // In another namespace the key may be counted from another boot time (a time namespace): take the
                // newest. Without a start time (a process the kernel no longer shows in full), the same.
                var pattern = Name(pid, "*");
                var all = Directory.EnumerateFileSystemEntries(folder, pattern).ToList();
                if (started is not null && all.FirstOrDefault(f => Key(f, pid) == started) is { } exact)
                {
                    return exact;
                }
                if (all.Order(StringComparer.Ordinal).LastOrDefault() is { } found)
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

    private static string Name(int pid, string key) => $"dotnet-diagnostic-{pid.ToString(CultureInfo.InvariantCulture)}-{key}-socket";

    // "dotnet-diagnostic-{pid}-{key}-socket" → key.
    private static string Key(string path, int pid)
    {
        var name = Path.GetFileName(path);
        var prefix = $"dotnet-diagnostic-{pid.ToString(CultureInfo.InvariantCulture)}-";
        return name.Length > prefix.Length + "-socket".Length ? name[prefix.Length..^"-socket".Length] : "";
    }

    /// <summary>Whether the process lives in another mount namespace than tplab (a container, a private /tmp).</summary>
    public static bool IsInOtherMountNamespace(int processId) => ProcessFiles.SharesMountNamespace(processId) == false;

    /// <summary>Where the socket can be, in order; for messages too.</summary>
    public static IEnumerable<(string Folder, int Pid)> Places(int processId) => Places(processId, IsInOtherMountNamespace(processId));

    private static IEnumerable<(string Folder, int Pid)> Places(int processId, bool otherNamespace)
    {
        var theirTmp = ProcessFiles.EnvironmentVariable(processId, "TMPDIR") is { Length: > 0 } t ? t : "/tmp";
        if (otherNamespace)
        {
            var root = $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/root";
            var nsPid = ProcessFiles.NamespacePid(processId);
            return new[] { root + theirTmp, root + "/tmp" }.Distinct().Select(f => (f, nsPid));
        }
        return new[] { Path.GetTempPath().TrimEnd('/'), theirTmp.TrimEnd('/'), "/tmp" }.Distinct().Select(f => (f, processId));
    }
}
