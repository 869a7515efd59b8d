using System.Diagnostics;
using Tplab.Processes;

namespace Tplab.Lab.Running;

/// <summary>
/// What a scenario cost the service's process: its peak resident memory (every scenario runs a fresh process, so
/// the peak is this scenario's) and the CPU time it used from the start of the load to the end of the scenario.
/// </summary>
public sealed record ProcessCost(double? PeakRssMb, double? CpuSeconds)
{
    /// <summary>The process's CPU time so far, or null when it cannot be read.</summary>
    public static TimeSpan? CpuTime(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return process.TotalProcessorTime;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    /// <summary>Reads the cost now, given the CPU time read when the load started.</summary>
    public static ProcessCost Measure(int processId, TimeSpan? cpuAtStart)
    {
        var cpu = CpuTime(processId);
        var rss = ProcessFiles.PeakResidentBytes(processId);
        return new ProcessCost(
            rss is long b ? Math.Round(b / 1048576.0, 1) : null,
            cpu is { } end && cpuAtStart is { } start ? Math.Round((end - start).TotalSeconds, 3) : null);
    }
}
