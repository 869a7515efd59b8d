using System.Globalization;
using Microsoft.Diagnostics.Runtime;

namespace Tplab.Diagnose.Offline;

/// <summary>The thread pool as a dump holds it, in one line: limits, working and idle threads, queued items, CPU, the hill-climbing log's reasons.</summary>
internal static class DumpPool
{
    public static string Describe(ClrRuntime runtime)
    {
        var pool = runtime.ThreadPool;
        if (pool is null || !pool.UsingPortableThreadPool)
        {
            return "pool state not readable from this dump";
        }
        var queued = GlobalQueueLength(runtime);
        var log = pool.EnumerateHillClimbingLog().ToList();
        var reasons = log.GroupBy(e => e.StateOrTransition.ToString()).OrderByDescending(g => g.Count()).Select(g => $"{g.Key} ×{g.Count().ToString(CultureInfo.InvariantCulture)}");
        var inv = CultureInfo.InvariantCulture;
        var queue = queued is { } q ? q.ToString(inv) : "?";
        var threads = string.Create(inv, $"{pool.ActiveWorkerThreads + pool.IdleWorkerThreads} worker threads ({pool.ActiveWorkerThreads} working, {pool.IdleWorkerThreads} idle), min {pool.MinThreads}, max {pool.MaxThreads}");
        var climbing = log.Count > 0 ? string.Create(inv, $"; hill-climbing log (last {log.Count} moves): {string.Join(", ", reasons)}, goal now {log[^1].NewThreadCount}") : "";
        return string.Create(inv, $"{threads}, {queue} items in the global queue, CPU {pool.CpuUtilization}%{climbing}");
    }

    // ThreadPool.s_workQueue.workItems is a ConcurrentQueue<object>: the items of each segment lie between its head and tail.
    private static long? GlobalQueueLength(ClrRuntime runtime)
    {
        try
        {
            var domain = runtime.AppDomains.FirstOrDefault() ?? runtime.SystemDomain;
            var field = runtime.BaseClassLibrary.GetTypeByName("System.Threading.ThreadPool")?.GetStaticFieldByName("s_workQueue");
            if (field is null || domain is null)
            {
                return null;
            }
            var queue = field.ReadObject(domain).ReadObjectField("workItems");
            long count = 0;
            for (var segment = queue.ReadObjectField("_head"); !segment.IsNull; segment = segment.ReadObjectField("_nextSegment"))
            {
                var ends = segment.ReadValueTypeField("_headAndTail");
                var mask = segment.ReadField<int>("_slotsMask");
                var head = ends.ReadField<int>("Head");
                var tail = ends.ReadField<int>("Tail");
                count += Math.Clamp(tail - head, 0, mask + 1);
            }
            return count;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or NullReferenceException)
        {
            return null;
        }
    }
}
