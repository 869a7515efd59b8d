using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// What CPU a process may use and whether its threads are using it, from /proc (through <see cref="ProcessFiles"/>)
/// and the cgroup files: the cores available to it
/// (its affinity, its cgroup's CPU quota, DOTNET_PROCESSOR_COUNT — what the runtime itself takes for
/// Environment.ProcessorCount), and how many of its threads are running or waiting for a core right now.
/// </summary>
public static class ProcessCpu
{
    /// <summary>
    /// Cores the process may use, as its runtime counts them for Environment.ProcessorCount: the smaller of its CPU
    /// affinity and its cgroup quota rounded up (v2 <c>cpu.max</c>, v1 <c>cpu.cfs_quota_us</c>), or DOTNET_PROCESSOR_COUNT
    /// when set in its environment; this machine's count when none is readable.
    /// </summary>
    public static double AvailableCores(int processId)
    {
        var cores = (double)(Affinity(processId) ?? Environment.ProcessorCount);
        if (Quota(processId) is { } quota)
        {
            // Rounded up, as the runtime does for Environment.ProcessorCount: CPU percent is then the gate thread's own.
            cores = Math.Min(cores, Math.Ceiling(quota));
        }
        if (ProcessorCountOverride(processId) is { } forced)
        {
            cores = forced;
        }
        return Math.Max(cores, 0.01);
    }

    /// <summary>The name the runtime gives its pool's worker threads (Linux keeps 15 characters of a thread's name).</summary>
    public const string PoolWorkerName = ".NET TP Worker";

    /// <summary>
    /// The pool's worker threads and how many of them are in state R (running, or runnable and waiting for a core),
    /// from /proc/PID/task/*/stat, averaged over <paramref name="looks"/> looks <paramref name="apart"/> apart (one look
    /// catches threads that woke for a moment); null when unreadable. A worker blocked in a wait is S (sleeping), so
    /// workers busy computing show here and blocked ones do not.
    /// </summary>
    public static (double Workers, double Runnable)? PoolWorkerStates(int processId, int looks = 3, TimeSpan apart = default)
    {
        double workers = 0, runnable = 0;
        for (var look = 0; look < looks; look++)
        {
            if (look > 0 && apart > TimeSpan.Zero)
            {
                Thread.Sleep(apart);
            }
            if (ProcessFiles.ThreadStats(processId) is not { } stats)
            {
                return null;
            }
            foreach (var stat in stats.Where(s => NameOf(s) == PoolWorkerName))
            {
                workers++;
                runnable += StateOf(stat) == 'R' ? 1 : 0;
            }
        }
        return (workers / looks, runnable / looks);
    }

    /// <summary>The state letter of a /proc stat line: the field after the name, which is in parentheses and may hold spaces.</summary>
    public static char? StateOf(string statLine)
    {
        var close = statLine.LastIndexOf(')');
        return close >= 0 && close + 2 < statLine.Length ? statLine[close + 2] : null;
    }

    /// <summary>The thread's name in a /proc stat line.</summary>
    public static string? NameOf(string statLine)
    {
        var open = statLine.IndexOf('(', StringComparison.Ordinal);
        var close = statLine.LastIndexOf(')');
        return open >= 0 && close > open ? statLine[(open + 1)..close] : null;
    }

    /// <summary>
    /// The whole machine's CPU time so far, in clock ticks, from the first line of /proc/stat: busy (user, nice, system,
    /// irq, softirq, steal) and total (busy plus idle and iowait); null when unreadable.
    /// </summary>
    public static (long Busy, long Total)? MachineCpuTicks()
    {
        try
        {
            using var reader = new StreamReader("/proc/stat");
            return MachineCpuTicksOf(reader.ReadLine() ?? "");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Busy and total ticks of a /proc/stat "cpu" line.</summary>
    public static (long Busy, long Total)? MachineCpuTicksOf(string cpuLine)
    {
        var fields = cpuLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 8 || fields[0] != "cpu")
        {
            return null;
        }
        var values = new long[8];
        for (var i = 0; i < 8; i++)
        {
            if (!long.TryParse(fields[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out values[i]))
            {
                return null;
            }
        }
        // user nice system idle iowait irq softirq steal
        var idle = values[3] + values[4];
        var busy = values[0] + values[1] + values[2] + values[5] + values[6] + values[7];
        return (busy, busy + idle);
    }

    /// <summary>Count of CPUs in a list such as "0-3,8,10-11".</summary>
    public static int? CountCpuList(string list)
    {
        var count = 0;
        foreach (var part in list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var range = part.Split('-');
            if (!int.TryParse(range[0], NumberStyles.None, CultureInfo.InvariantCulture, out var from))
            {
                return null;
            }
            var to = from;
            if (range.Length == 2 && !int.TryParse(range[1], NumberStyles.None, CultureInfo.InvariantCulture, out to))
            {
                return null;
            }
            count += to - from + 1;
        }
        return count > 0 ? count : null;
    }

    /// <summary>Cores allowed by a cgroup v2 <c>cpu.max</c> line ("max 100000" = no limit, "150000 100000" = 1.5).</summary>
    public static double? QuotaOf(string cpuMax)
    {
        var parts = cpuMax.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return parts.Length == 2 && parts[0] != "max"
            && double.TryParse(parts[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var quota)
            && double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var period) && quota > 0 && period > 0
            ? quota / period
            : null;
    }

    private static int? Affinity(int processId)
    {
        var list = ProcessFiles.Status(processId, "Cpus_allowed_list");
        return list is null ? null : CountCpuList(list);
    }

    private static double? Quota(int processId)
    {
        foreach (var line in ProcessFiles.Cgroups(processId))
        {
            var fields = line.Split(':', 3);
            if (fields.Length != 3)
            {
                continue;
            }
            if (fields[0] == "0" && fields[1].Length == 0 && ReadFirst($"/sys/fs/cgroup{fields[2]}/cpu.max") is { } max)
            {
                return QuotaOf(max);
            }
            if (fields[1].Split(',').Contains("cpu"))
            {
                foreach (var mount in new[] { "cpu", "cpu,cpuacct", "cpuacct,cpu" })
                {
                    var dir = $"/sys/fs/cgroup/{mount}{fields[2]}";
                    if (ReadFirst(dir + "/cpu.cfs_quota_us") is { } quota && ReadFirst(dir + "/cpu.cfs_period_us") is { } period)
                    {
                        return QuotaOf(quota.StartsWith('-') ? "max " + period : quota + " " + period);
                    }
                }
            }
        }
        return null;
    }

    private static double? ProcessorCountOverride(int processId) =>
        int.TryParse(ProcessFiles.EnvironmentVariable(processId, "DOTNET_PROCESSOR_COUNT"), NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > 0
            ? n
            : null;

    private static string? ReadFirst(string path)
    {
        try
        {
            return File.ReadLines(path).FirstOrDefault()?.Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
