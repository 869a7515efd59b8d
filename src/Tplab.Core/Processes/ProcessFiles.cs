using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// What Linux tells about a process in /proc: whether it runs, its name, owner, OS thread count, mapped files,
/// environment and namespaces. The one place tplab reads /proc for another process; every reader returns null
/// (or false) when the file is gone or unreadable rather than throwing.
/// </summary>
public static class ProcessFiles
{
    /// <summary>Whether the process exists and is not a zombie.</summary>
    public static bool IsAlive(int processId)
    {
        if (processId <= 0)
        {
            return false;
        }
        var stat = Read(processId, "stat");
        var close = stat?.LastIndexOf(')') ?? -1;
        return stat is not null && close >= 0 && close + 2 < stat.Length && stat[close + 2] is not ('Z' or 'X');
    }

    /// <summary>The command name (comm), or "?".</summary>
    public static string Name(int processId) => Read(processId, "comm")?.Trim() ?? "?";

    /// <summary>OS threads of the process (the Threads: line of /proc/PID/status), or null when it is gone.</summary>
    public static int? OsThreads(int processId) =>
        StatusField(processId, "Threads:") is { } v && int.TryParse(v, NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : null;

    /// <summary>The most resident memory the process has used so far (VmHWM of /proc/PID/status), in bytes; null when it is gone.</summary>
    public static long? PeakResidentBytes(int processId) =>
        StatusField(processId, "VmHWM:")?.Split(' ')[0] is { } kb && long.TryParse(kb, NumberStyles.None, CultureInfo.InvariantCulture, out var v) ? v * 1024 : null;

    /// <summary>The process group of the process (fifth field of /proc/PID/stat), or null when it is gone.</summary>
    public static int? ProcessGroup(int processId) =>
        StatFields(processId) is { Length: > 2 } f && int.TryParse(f[2], NumberStyles.None, CultureInfo.InvariantCulture, out var g) ? g : null;

    /// <summary>
    /// When the process started, in clock ticks since boot (field 22 of /proc/PID/stat): with the pid, it names one
    /// process, never a later one that reused the pid. Null when it is gone.
    /// </summary>
    public static ulong? StartTicks(int processId) =>
        StatFields(processId) is { Length: > 19 } f && ulong.TryParse(f[19], NumberStyles.None, CultureInfo.InvariantCulture, out var t) ? t : null;

    // The fields of /proc/PID/stat after "pid (comm) ", from state on: comm may hold spaces and parentheses, so they
    // are read after the last ')'.
    private static string[]? StatFields(int processId)
    {
        var stat = Read(processId, "stat");
        var close = stat?.LastIndexOf(')') ?? -1;
        return stat is not null && close >= 0 && close + 2 < stat.Length ? stat[(close + 2)..].Split(' ') : null;
    }

    /// <summary>One field of /proc/PID/status (the text after "Name:"), or null when unreadable.</summary>
    public static string? Status(int processId, string field) => StatusField(processId, field + ":");

    /// <summary>The lines of /proc/PID/cgroup, or none when unreadable.</summary>
    public static string[] Cgroups(int processId) => Read(processId, "cgroup")?.Split('\n', StringSplitOptions.RemoveEmptyEntries) ?? [];

    /// <summary>
    /// The /proc/PID/task/TID/stat line of every thread of the process; null when the process is gone. A thread that
    /// ends between the listing and the read is left out.
    /// </summary>
    public static List<string>? ThreadStats(int processId)
    {
        try
        {
            var lines = new List<string>();
            foreach (var task in Directory.EnumerateDirectories($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task"))
            {
                if (SafeRead(Path.Combine(task, "stat")) is { } line)
                {
                    lines.Add(line);
                }
            }
            return lines;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The effective user id of the process (second field of Uid:), or null when unreadable.</summary>
    public static int? EffectiveUid(int processId) => EffectiveUidOf(StatusField(processId, "Uid:"));

    /// <summary>The effective user id of tplab itself.</summary>
    public static int? OwnUid() => EffectiveUidOf(StatusLine(SafeRead("/proc/self/status"), "Uid:"));

    /// <summary>The owner's user id as "uid N", for error messages.</summary>
    public static string Owner(int processId) =>
        EffectiveUid(processId) is { } uid ? $"uid {uid.ToString(CultureInfo.InvariantCulture)}" : "unknown user";

    /// <summary>
    /// The process's id inside its own pid namespace (the last NSpid: field): the id a containerised runtime put in
    /// its diagnostic socket's name. Equal to <paramref name="processId"/> outside containers.
    /// </summary>
    public static int NamespacePid(int processId)
    {
        var field = StatusField(processId, "NSpid:");
        var last = field?.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries).LastOrDefault();
        return int.TryParse(last, NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : processId;
    }

    /// <summary>Whether the process sees the same mounts as tplab (same /proc/PID/ns/mnt); null when unreadable.</summary>
    public static bool? SharesMountNamespace(int processId)
    {
        try
        {
            var theirs = new FileInfo($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/ns/mnt").LinkTarget;
            var ours = new FileInfo("/proc/self/ns/mnt").LinkTarget;
            return theirs is null || ours is null ? null : theirs == ours;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The lines of /proc/PID/maps (the files the process mapped), or null when unreadable.</summary>
    public static string[]? Maps(int processId) => Read(processId, "maps")?.Split('\n', StringSplitOptions.RemoveEmptyEntries);

    /// <summary>One variable of the environment the process started with (/proc/PID/environ), or null.</summary>
    public static string? EnvironmentVariable(int processId, string name)
    {
        var environ = Read(processId, "environ");
        if (environ is null)
        {
            return null;
        }
        var prefix = name + "=";
        return environ.Split('\0').FirstOrDefault(v => v.StartsWith(prefix, StringComparison.Ordinal))?[prefix.Length..];
    }

    /// <summary>The command line of the process, one element per argument; empty when unreadable.</summary>
    public static IReadOnlyList<string> CommandLine(int processId) =>
        Read(processId, "cmdline")?.Split('\0', StringSplitOptions.RemoveEmptyEntries) ?? [];

    /// <summary>The direct children of the process (from /proc/PID/task/*/children), in ascending order; empty when none or unreadable.</summary>
    public static IReadOnlyList<int> Children(int processId)
    {
        var children = new List<int>();
        try
        {
            foreach (var task in Directory.EnumerateDirectories($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task"))
            {
                var text = SafeRead(Path.Combine(task, "children"));
                foreach (var part in (text ?? "").Split(' ', StringSplitOptions.RemoveEmptyEntries))
                {
                    if (int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var child))
                    {
                        children.Add(child);
                    }
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
        children.Sort();
        return children;
    }

    /// <summary>The ids of every process /proc lists, in ascending order.</summary>
    public static IReadOnlyList<int> AllProcessIds()
    {
        var ids = new List<int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var id))
            {
                ids.Add(id);
            }
        }
        ids.Sort();
        return ids;
    }

    private static int? EffectiveUidOf(string? uidField)
    {
        var effective = uidField?.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries).ElementAtOrDefault(1);
        return int.TryParse(effective, NumberStyles.None, CultureInfo.InvariantCulture, out var uid) ? uid : null;
    }

    private static string? StatusField(int processId, string field) => StatusLine(Read(processId, "status"), field);

    private static string? StatusLine(string? status, string field)
    {
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

    private static string? Read(int processId, string file) => SafeRead($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/{file}");

    private static string? SafeRead(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
