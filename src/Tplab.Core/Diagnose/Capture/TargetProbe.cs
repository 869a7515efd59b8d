using System.Diagnostics;
using System.Globalization;
using Tplab.Common;

namespace Tplab.Diagnose.Capture;

/// <summary>What tplab learned about a process before attaching: its name and, when readable, its runtime version.</summary>
public sealed record TargetFacts(int ProcessId, string Name, Version? RuntimeVersion);

/// <summary>
/// Checks a process id before a capture and turns each way it can fail into one line and a documented exit code:
/// no such process or not .NET (5), another user's process (6). Reads /proc on Linux.
/// </summary>
public static class TargetProbe
{
    /// <summary>The facts about <paramref name="processId"/>, or a <see cref="TplabException"/> saying why it cannot be diagnosed.</summary>
    public static TargetFacts Inspect(int processId)
    {
        if (processId <= 0 || !IsAlive(processId))
        {
            throw new TplabException(ExitCodes.NoProcess, $"no process with id {processId}");
        }
        var name = NameOf(processId);
        if (OwnerMismatch(processId) is { } owner)
        {
            throw new TplabException(ExitCodes.PermissionDenied,
                $"permission denied: process {processId} ({name}) belongs to uid {owner.Target} and tplab runs as uid {owner.Self}; EventPipe only answers its own user (run tplab as that user, or as root)");
        }
        if (!HasDiagnosticSocket(processId))
        {
            throw new TplabException(ExitCodes.NoProcess, LoadsCoreClr(processId) is false
                ? $"process {processId} ({name}) is not a .NET process (it does not load libcoreclr)"
                : $"process {processId} ({name}) publishes no .NET diagnostic socket in {Path.GetTempPath().TrimEnd('/')}: not a .NET 8+ process, or DOTNET_EnableDiagnostics=0, or a container with its own /tmp");
        }
        return new TargetFacts(processId, name, RuntimeVersionOf(processId));
    }

    /// <summary>True while the process exists and is not a zombie.</summary>
    public static bool IsAlive(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            try
            {
                using var p = Process.GetProcessById(processId);
                return !p.HasExited;
            }
            catch (ArgumentException)
            {
                return false;
            }
            catch (InvalidOperationException)
            {
                return false;
            }
        }
        try
        {
            var stat = File.ReadAllText($"/proc/{processId}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..][0] is not ('Z' or 'X');
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>The runtime version from the path of the libcoreclr the process mapped (<c>.../Microsoft.NETCore.App/10.0.1/libcoreclr.so</c>); null when unreadable or self-contained.</summary>
    public static Version? RuntimeVersionOf(int processId)
    {
        foreach (var line in MapsOf(processId) ?? [])
        {
            var at = line.IndexOf('/', StringComparison.Ordinal);
            if (at < 0 || !line.EndsWith("/libcoreclr.so", StringComparison.Ordinal))
            {
                continue;
            }
            var folder = Path.GetFileName(Path.GetDirectoryName(line[at..]));
            var plain = folder?.Split('-')[0];
            if (Version.TryParse(plain, out var version))
            {
                return version;
            }
        }
        return null;
    }

    // The runtime listens on $TMPDIR/dotnet-diagnostic-{pid}-{key}-socket (dotnet/diagnostics ipc-protocol.md).
    // Looked up directly rather than with DiagnosticsClient.GetPublishedProcesses, which reads every process's
    // environment and fails when any of them exits meanwhile.
    private static bool HasDiagnosticSocket(int processId)
    {
        if (OperatingSystem.IsWindows())
        {
            return true;
        }
        var pattern = $"dotnet-diagnostic-{processId.ToString(CultureInfo.InvariantCulture)}-*-socket";
        foreach (var folder in new[] { Path.GetTempPath(), "/tmp/" }.Distinct())
        {
            try
            {
                if (Directory.EnumerateFileSystemEntries(folder, pattern).Any())
                {
                    return true;
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }
        return false;
    }

    private static bool? LoadsCoreClr(int processId) =>
        MapsOf(processId) is { } maps ? maps.Any(l => l.EndsWith("/libcoreclr.so", StringComparison.Ordinal)) : null;

    private static string[]? MapsOf(int processId)
    {
        try
        {
            return OperatingSystem.IsLinux() ? File.ReadAllLines($"/proc/{processId}/maps") : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static string NameOf(int processId)
    {
        try
        {
            if (OperatingSystem.IsLinux())
            {
                return File.ReadAllText($"/proc/{processId}/comm").Trim();
            }
            using var p = Process.GetProcessById(processId);
            return p.ProcessName;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or InvalidOperationException)
        {
            return "?";
        }
    }

    // Root may attach to anyone; everyone else only to their own processes (the socket is owner-only).
    private static (int Target, int Self)? OwnerMismatch(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }
        var target = EffectiveUid($"/proc/{processId}/status");
        var self = EffectiveUid("/proc/self/status");
        return target is { } t && self is { } s && s != 0 && t != s ? (t, s) : null;
    }

    private static int? EffectiveUid(string statusPath)
    {
        try
        {
            var line = File.ReadLines(statusPath).FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal));
            var field = line?.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries).ElementAtOrDefault(2);
            return int.TryParse(field, NumberStyles.None, CultureInfo.InvariantCulture, out var uid) ? uid : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
