using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using Tplab.Blocking;
using Tplab.Diagnose.Requests;

namespace Tplab.Diagnose.Capture;

/// <summary>What one capture holds: sample-profiler stacks, wait events with stacks, and the window they cover.</summary>
public sealed record CapturedStacks(IReadOnlyList<RawSample> Samples, IReadOnlyList<RawWait> Waits, double StartMs, double EndMs, int WaitStartEvents)
{
    /// <summary>ASP.NET Core's request events (hosting start/stop, matched endpoint, MVC action), in time order.</summary>
    public IReadOnlyList<RequestEvent> Requests { get; init; } = [];

    /// <summary>The JIT's successful inlinings of application methods during the capture.</summary>
    public IReadOnlyList<Inlining> Inlinings { get; init; } = [];

    /// <summary>ContentionStart events read (contended <c>lock</c>s), all threads.</summary>
    public int ContentionEvents { get; init; }

    /// <summary>The IL paths of the modules the process had loaded (from the rundown), to read the application's code.</summary>
    public IReadOnlyList<string> Modules { get; init; } = [];

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

/// <summary>One MethodJitInliningSucceeded: <see cref="Inlinee"/> went into <see cref="Inliner"/> while <see cref="Root"/> was compiled.</summary>
public sealed record Inlining(string Root, string Inliner, string Inlinee);

/// <summary>
/// Reads a finished .nettrace through TraceLog, which resolves method names from the rundown the runtime wrote
/// at the end of the session, and keeps only what diagnosis needs: stacks per thread and time.
/// </summary>
public static class TraceReader
{
    private const string SampleProfiler = DiagnoseProviders.SampleProfiler;
    private const string Runtime = DiagnoseProviders.Runtime;
    private const string Rundown = "Microsoft-Windows-DotNETRuntimeRundown";

    // Sample types from coreclr's sampleprofiler.h: 1 = External (native or blocked), 2 = Managed (running managed code).
    private const int ExternalSample = 1;

    /// <summary>Reads the stacks of a finished .nettrace; TraceEvent's exceptions pass through (the caller knows whose file it is).</summary>
    public static CapturedStacks Read(string nettracePath)
    {
        // The .etlx goes to the scratch folder (memory-backed where there is one): a user's trace may sit in a folder
        // tplab cannot write to.
        return ReadConverted(TraceLog.CreateFromEventPipeDataFile(nettracePath, ScratchFolder.File("tplab", ".etlx"), ConversionOptions()));
    }

    /// <summary>
    /// TraceLog's options for converting a trace to .etlx: all events kept, since the method load/stop and IL-map events,
    /// which TraceLog otherwise keeps to itself, give IL offsets.
    /// </summary>
    internal static TraceLogOptions ConversionOptions() => new() { KeepAllEvents = true };

    /// <summary>
    /// Reads the stacks of an .etlx converted with <see cref="ConversionOptions"/>, then deletes it; with
    /// <paramref name="requests"/> (read from the stream during the conversion) the request events are not read again.
    /// </summary>
    internal static CapturedStacks ReadConverted(string etlx, IReadOnlyList<RequestEvent>? requests = null)
    {
        try
        {
            using var log = new TraceLog(etlx);
            var frames = new Dictionary<CallStackIndex, Stack>();
            var maps = new CodeMaps();
            var samples = new List<RawSample>();
            var waits = new List<RawWait>();
            var open = new Dictionary<int, (double Start, IReadOnlyList<StackFrame> Frames, Guid Activity)>();
            var waitStarts = 0;
            var contentions = 0;
            var openLocks = new Dictionary<int, (double Start, IReadOnlyList<StackFrame> Frames, Guid Activity)>();
            var read = new List<RequestEvent>();
            var inlinings = new List<Inlining>();
            var modules = new HashSet<string>(StringComparer.Ordinal);
            double first = double.MaxValue, last = 0;
            int? processId = null;
            string? commandLine = null, runtimePath = null;
            int withStacks = 0, rundownMethods = 0, events = 0;
            foreach (var e in log.Events)
            {
                switch (e)
                {
                    case MethodLoadUnloadVerboseTraceData method:
                        maps.OnMethod(method);
                        continue;
                    case MethodILToNativeMapTraceData map:
                        maps.OnMap(map);
                        continue;
                    case ModuleLoadUnloadTraceData module:
                        maps.OnModule(module.ModuleID, module.ModuleILPath ?? "");
                        break;
                }
                var t = e.TimeStampRelativeMSec;
                events++;
                processId ??= e.ProcessID > 0 ? e.ProcessID : null;
                withStacks += e.CallStackIndex() != CallStackIndex.Invalid ? 1 : 0;
                if (runtimePath is null && e.ProviderName == Rundown && e.EventName == "Runtime/Start")
                {
                    runtimePath ??= e.PayloadByName("RuntimeDllPath") as string;
                }
                else if (commandLine is null && e.EventName == "ProcessInfo")
                {
                    commandLine ??= e.PayloadByName("CommandLine") as string;
                }
                var provider = e.ProviderName;
                if (provider == SampleProfiler)
                {
                    first = Math.Min(first, t);
                    last = Math.Max(last, t);
                    // The sample's one field (a 4-byte type), read in place: parsing the payload for every sample cost a third of the read.
                    var type = e.EventDataLength == 4 ? System.Runtime.InteropServices.Marshal.ReadInt32(e.DataStart)
                        : e.PayloadValue(0) is { } v ? Convert.ToInt32(v, System.Globalization.CultureInfo.InvariantCulture) : 0;
                    samples.Add(new RawSample(e.ThreadID, t, type == ExternalSample, FramesOf(e, frames)));
                }
                else if (provider == Runtime)
                {
                    switch (e.EventName)
                    {
                        case "WaitHandleWait/Start":
                            waitStarts++;
                            open[e.ThreadID] = (t, FramesOf(e, frames), e.ActivityID);
                            break;
                        case "WaitHandleWait/Stop" when open.Remove(e.ThreadID, out var started):
                            waits.Add(new RawWait(e.ThreadID, started.Start, t, started.Frames) { Activity = started.Activity });
                            break;
                        // A contended lock: the runtime raises these with the waiting thread's stack.
                        case "Contention/Start":
                            contentions++;
                            openLocks[e.ThreadID] = (t, FramesOf(e, frames), e.ActivityID);
                            break;
                        case "Contention/Stop" when openLocks.Remove(e.ThreadID, out var locked):
                            waits.Add(new RawWait(e.ThreadID, locked.Start, t, locked.Frames) { Activity = locked.Activity });
                            break;
                        case "Method/InliningSucceeded" when InliningOf(e) is { } inlining:
                            inlinings.Add(inlining);
                            break;
                    }
                }
                else if (provider == Rundown && e.EventName == "Loader/ModuleDCStop"
                    && e.PayloadByName("ModuleILPath") is string { Length: > 0 } module)
                {
                    modules.Add(module);
                }
                else if (requests is null && provider is DiagnoseProviders.Hosting or DiagnoseProviders.DiagnosticSource && RequestEvents.Of(e, t) is { } request)
                {
                    read.Add(request);
                }
            }
            foreach (var stack in frames.Values)
            {
                stack.Locate(maps);
            }
            waits.AddRange(open.Select(o => new RawWait(o.Key, o.Value.Start, null, o.Value.Frames) { Activity = o.Value.Activity }));
            waits.AddRange(openLocks.Select(o => new RawWait(o.Key, o.Value.Start, null, o.Value.Frames) { Activity = o.Value.Activity }));
            var captured = first > last
                ? new CapturedStacks(samples, waits, 0, 0, waitStarts)
                : new CapturedStacks(samples, waits, first, last, waitStarts);
            // TraceLog keeps the rundown's method events to itself (it names frames with them); its statistics count them.
            rundownMethods = log.Stats.Where(c => c.ProviderName == Rundown && c.EventName.StartsWith("Method/DCStop", StringComparison.Ordinal)).Sum(c => c.Count);
            var contents = new TraceContents(processId, commandLine, runtimePath, withStacks, rundownMethods, events);
            return captured with { Requests = requests ?? read, Inlinings = inlinings, ContentionEvents = contentions, Modules = [.. modules], Contents = contents };
        }
        finally
        {
            TryDelete(etlx);
        }
    }

    private static Inlining? InliningOf(TraceEvent e)
    {
        var inlineeType = e.PayloadByName("InlineeNamespace") as string ?? "";
        // Only application methods matter; the runtime's own inlinings are the bulk of these events.
        if (inlineeType.Length == 0 || inlineeType.StartsWith("System.", StringComparison.Ordinal) || inlineeType.StartsWith("Microsoft.", StringComparison.Ordinal))
        {
            return null;
        }
        string Name(string prefix) => (e.PayloadByName(prefix + "Namespace") as string ?? "") + "." + (e.PayloadByName(prefix + "Name") as string ?? "");
        return new Inlining(Name("MethodBeingCompiled"), Name("Inliner"), Name("Inlinee"));
    }

    private static IReadOnlyList<StackFrame> FramesOf(TraceEvent e, Dictionary<CallStackIndex, Stack> cache)
    {
        var index = e.CallStackIndex();
        if (index == CallStackIndex.Invalid)
        {
            return [];
        }
        if (cache.TryGetValue(index, out var known))
        {
            return known.Frames;
        }
        var stack = new Stack();
        for (var frame = e.CallStack(); frame is not null; frame = frame.Caller)
        {
            var address = frame.CodeAddress;
            stack.Frames.Add(StackFrame.Parse(address.ModuleName ?? "", address.FullMethodName ?? ""));
            stack.Addresses.Add(address.Address);
        }
        cache[index] = stack;
        return stack.Frames;
    }

    /// <summary>One distinct stack: its frames (shared by every event that has it) and their addresses, located in IL once the rundown is read.</summary>
    private sealed class Stack
    {
        public List<StackFrame> Frames { get; } = [];

        public List<ulong> Addresses { get; } = [];

        public void Locate(CodeMaps maps)
        {
            for (var i = 0; i < Frames.Count; i++)
            {
                if (!Frames[i].IsUnresolved && maps.Locate(Addresses[i], returnAddress: i > 0) is { } code)
                {
                    Frames[i] = Frames[i] with { Code = code };
                }
            }
        }
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
