using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Capture;

/// <summary>What one capture holds: sample-profiler stacks, wait events with stacks, and the window they cover.</summary>
public sealed record CapturedStacks(IReadOnlyList<RawSample> Samples, IReadOnlyList<RawWait> Waits, double StartMs, double EndMs, int WaitStartEvents);

/// <summary>
/// Reads a finished .nettrace through TraceLog, which resolves method names from the rundown the runtime wrote
/// at the end of the session, and keeps only what diagnosis needs: stacks per thread and time.
/// </summary>
internal static class TraceReader
{
    private const string SampleProfiler = "Microsoft-DotNETCore-SampleProfiler";
    private const string Runtime = "Microsoft-Windows-DotNETRuntime";

    // Sample types from coreclr's sampleprofiler.h: 1 = External (native or blocked), 2 = Managed (running managed code).
    private const int ExternalSample = 1;

    public static CapturedStacks Read(string nettracePath)
    {
        var etlx = TraceLog.CreateFromEventPipeDataFile(nettracePath);
        try
        {
            using var log = new TraceLog(etlx);
            var frames = new Dictionary<CallStackIndex, IReadOnlyList<StackFrame>>();
            var samples = new List<RawSample>();
            var waits = new List<RawWait>();
            var open = new Dictionary<int, (double Start, IReadOnlyList<StackFrame> Frames)>();
            var waitStarts = 0;
            double first = double.MaxValue, last = 0;
            foreach (var e in log.Events)
            {
                var t = e.TimeStampRelativeMSec;
                if (e.ProviderName == SampleProfiler)
                {
                    first = Math.Min(first, t);
                    last = Math.Max(last, t);
                    var type = e.PayloadByName("Type") is { } v ? Convert.ToInt32(v, System.Globalization.CultureInfo.InvariantCulture) : 0;
                    samples.Add(new RawSample(e.ThreadID, t, type == ExternalSample, FramesOf(e, frames)));
                }
                else if (e.ProviderName == Runtime && e.EventName == "WaitHandleWait/Start")
                {
                    waitStarts++;
                    open[e.ThreadID] = (t, FramesOf(e, frames));
                }
                else if (e.ProviderName == Runtime && e.EventName == "WaitHandleWait/Stop" && open.Remove(e.ThreadID, out var started))
                {
                    waits.Add(new RawWait(e.ThreadID, started.Start, t, started.Frames));
                }
            }
            waits.AddRange(open.Select(o => new RawWait(o.Key, o.Value.Start, null, o.Value.Frames)));
            return first > last
                ? new CapturedStacks(samples, waits, 0, 0, waitStarts)
                : new CapturedStacks(samples, waits, first, last, waitStarts);
        }
        finally
        {
            TryDelete(etlx);
        }
    }

    private static IReadOnlyList<StackFrame> FramesOf(TraceEvent e, Dictionary<CallStackIndex, IReadOnlyList<StackFrame>> cache)
    {
        var index = e.CallStackIndex();
        if (index == CallStackIndex.Invalid)
        {
            return [];
        }
        if (cache.TryGetValue(index, out var known))
        {
            return known;
        }
        var list = new List<StackFrame>();
        for (var frame = e.CallStack(); frame is not null; frame = frame.Caller)
        {
            var address = frame.CodeAddress;
            list.Add(StackFrame.Parse(address.ModuleName ?? "", address.FullMethodName ?? ""));
        }
        cache[index] = list;
        return list;
    }

    internal static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
