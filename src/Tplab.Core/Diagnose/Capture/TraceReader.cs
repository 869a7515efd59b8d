using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Capture;

/// <summary>What one capture holds: sample-profiler stacks, wait events with stacks, and the window they cover.</summary>
public sealed record CapturedStacks(IReadOnlyList<RawSample> Samples, IReadOnlyList<RawWait> Waits, double StartMs, double EndMs, int WaitStartEvents)
{
    /// <summary>What else the trace told about itself (the process, the rundown, stacks); for traces collected elsewhere.</summary>
    public TraceContents Contents { get; init; } = TraceContents.Empty;
}

/// <summary>
/// What a trace says about the process and about its own completeness: the process id, its command line
/// (EventPipe's ProcessInfo), the runtime's path (the rundown's RuntimeInformation), how many events carried a
/// stack, and how many methods the rundown named.
/// </summary>
public sealed record TraceContents(int? ProcessId, string? CommandLine, string? RuntimeDllPath, int EventsWithStacks, int RundownMethods, int Events)
{
    /// <summary>Nothing known.</summary>
    public static readonly TraceContents Empty = new(null, null, null, 0, 0, 0);
}

/// <summary>
/// Reads a finished .nettrace through TraceLog, which resolves method names from the rundown the runtime wrote
/// at the end of the session, and keeps only what diagnosis needs: stacks per thread and time.
/// </summary>
public static class TraceReader
{
    private const string SampleProfiler = "Microsoft-DotNETCore-SampleProfiler";
    private const string Runtime = "Microsoft-Windows-DotNETRuntime";
    private const string Rundown = "Microsoft-Windows-DotNETRuntimeRundown";

    // Sample types from coreclr's sampleprofiler.h: 1 = External (native or blocked), 2 = Managed (running managed code).
    private const int ExternalSample = 1;

    /// <summary>Reads the stacks of a finished .nettrace; TraceEvent's exceptions pass through (the caller knows whose file it is).</summary>
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
            int? processId = null;
            string? commandLine = null, runtimePath = null;
            int withStacks = 0, rundownMethods = 0, events = 0;
            foreach (var e in log.Events)
            {
                var t = e.TimeStampRelativeMSec;
                events++;
                processId ??= e.ProcessID > 0 ? e.ProcessID : null;
                withStacks += e.CallStackIndex() != CallStackIndex.Invalid ? 1 : 0;
                if (e.ProviderName == Rundown && e.EventName == "Runtime/Start")
                {
                    runtimePath ??= e.PayloadByName("RuntimeDllPath") as string;
                }
                else if (e.EventName == "ProcessInfo")
                {
                    commandLine ??= e.PayloadByName("CommandLine") as string;
                }
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
            // TraceLog keeps the rundown's method events to itself (it names frames with them); its statistics count them.
            rundownMethods = log.Stats.Where(c => c.ProviderName == Rundown && c.EventName.StartsWith("Method/DCStop", StringComparison.Ordinal)).Sum(c => c.Count);
            var contents = new TraceContents(processId, commandLine, runtimePath, withStacks, rundownMethods, events);
            return first > last
                ? new CapturedStacks(samples, waits, 0, 0, waitStarts) { Contents = contents }
                : new CapturedStacks(samples, waits, first, last, waitStarts) { Contents = contents };
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

    /// <summary>Deletes a file if it can; a leftover temporary file is not worth failing for.</summary>
    public static void TryDelete(string path)
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
