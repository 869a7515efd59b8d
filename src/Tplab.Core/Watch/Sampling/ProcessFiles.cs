using System.Globalization;

namespace Tplab.Watch.Sampling;

/// <summary>What Linux tells about a process in /proc: whether it runs, its name, owner and OS thread count.</summary>
public static class ProcessFiles
{
    /// <summary>Whether the process exists and is not a zombie.</summary>
    public static bool IsAlive(int processId)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{processId}/stat");
            return stat[(stat.LastIndexOf(')') + 2)] is not ('Z' or 'X');
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>The command name (comm), or "?".</summary>
    public static string Name(int processId) => Read(processId, "comm")?.Trim() ?? "?";

    /// <summary>OS threads of the process (the Threads: line of /proc/PID/status), or null when it is gone.</summary>
    public static int? OsThreads(int processId) => StatusField(processId, "Threads:") is { } v ? int.Parse(v, CultureInfo.InvariantCulture) : null;

    /// <summary>The most resident memory the process has used so far (VmHWM of /proc/PID/status), in bytes; null when it is gone.</summary>
    public static long? PeakResidentBytes(int processId) =>
        StatusField(processId, "VmHWM:") is { } v ? long.Parse(v.Split(' ')[0], CultureInfo.InvariantCulture) * 1024 : null;

    /// <summary>The owner's user id as "uid N", for error messages.</summary>
    public static string Owner(int processId) =>
        StatusField(processId, "Uid:") is { } uid ? $"uid {uid.Split('\t', ' ')[0]}" : "unknown user";

    private static string? StatusField(int processId, string field)
    {
        var status = Read(processId, "status");
        if (status is null)
        {
            return null;
        }
        foreach (var line in status.AsSpan().EnumerateLines())
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
            {
                return line[field.Length..].Trim().ToString();
            }
        }
        return null;
    }

    private static string? Read(int processId, string file)
    {
        try
        {
            return File.ReadAllText($"/proc/{processId}/{file}");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
