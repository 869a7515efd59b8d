using System.Diagnostics;

namespace Tplab.Scan;

// TEMPORARY (issue 26 profiling): wall and process CPU per phase on stderr when TPLAB_SCAN_PHASES is set. Removed before the branch is done.
internal static class PhaseClock
{
    private static readonly bool On = Environment.GetEnvironmentVariable("TPLAB_SCAN_PHASES") is not null;
    private static readonly Stopwatch Wall = Stopwatch.StartNew();
    private static TimeSpan _lastWall;
    private static TimeSpan _lastCpu;

    public static void Mark(string phase)
    {
        if (!On)
        {
            return;
        }
        var wall = Wall.Elapsed;
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        Console.Error.WriteLine($"PHASE {phase,-24} wall {(wall - _lastWall).TotalSeconds,7:F2}s cpu {(cpu - _lastCpu).TotalSeconds,7:F2}s  (total wall {wall.TotalSeconds:F2}s cpu {cpu.TotalSeconds:F2}s, {GC.GetTotalMemory(false) / 1_000_000} MB managed, gen2 {GC.CollectionCount(2)})");
        _lastWall = wall;
        _lastCpu = cpu;
    }
}
