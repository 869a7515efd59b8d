using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using Tplab.Blocking;

namespace Tplab.Diagnose.Capture;

/// <summary>
/// The runtime's IL-to-native maps of jitted code, from a trace: each code version's start, size, method token and module
/// (MethodLoadVerbose while the session runs, MethodDCStopVerbose in the rundown) with the map the runtime sends beside it
/// (MethodILToNativeMap: right after a load, right before a rundown's stop, on the same thread). A frame's address then
/// gives the IL offset of the call it is in: a return address points just after the call, so its offset − 1 is looked up,
/// which lies inside the call instruction's native code (the address itself may already belong to the next IL offset).
/// </summary>
internal sealed class CodeMaps
{
    private readonly Dictionary<int, Method> _lastLoad = [];
    private readonly Dictionary<int, MethodILToNativeMapTraceData> _pendingMap = [];
    private readonly Dictionary<long, string> _modules = [];
    private readonly List<Method> _methods = [];
    private Method[]? _sorted;

    public void OnMethod(MethodLoadUnloadVerboseTraceData e)
    {
        if (e.MethodSize <= 0 || e.MethodToken == 0)
        {
            return;
        }
        var method = new Method(e.MethodStartAddress, e.MethodSize, e.MethodToken, e.ModuleID, e.MethodID);
        _methods.Add(method);
        _sorted = null;
        // The rundown sends a code version's map before its stop event.
        if (_pendingMap.Remove(e.ThreadID, out var map) && map.MethodID == e.MethodID)
        {
            method.Map = MapOf(map);
        }
        _lastLoad[e.ThreadID] = method;
    }

    public void OnMap(MethodILToNativeMapTraceData e)
    {
        // While the session runs, the map follows its method's load event on the same thread.
        if (_lastLoad.TryGetValue(e.ThreadID, out var last) && last.MethodId == e.MethodID && last.Map is null)
        {
            last.Map = MapOf(e);
            return;
        }
        _pendingMap[e.ThreadID] = (MethodILToNativeMapTraceData)e.Clone();
    }

    public void OnModule(long moduleId, string path)
    {
        if (path.Length > 0)
        {
            _modules[moduleId] = path;
        }
    }

    /// <summary>Where <paramref name="address"/> is in its method's IL; <paramref name="returnAddress"/> for every frame but the stack's top.</summary>
    public CodeSite? Locate(ulong address, bool returnAddress)
    {
        var sorted = _sorted ??= [.. _methods.OrderBy(m => m.Start)];
        var lookup = returnAddress && address > 0 ? address - 1 : address;
        int lo = 0, hi = sorted.Length - 1, found = -1;
        while (lo <= hi)
        {
            var mid = (lo + hi) >>> 1;
            if (sorted[mid].Start <= lookup)
            {
                found = mid;
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        // A code version can be listed twice (its load and the rundown): of those holding the address, one with a map.
        Method? holder = null;
        for (var i = found; i >= 0 && i > found - 8; i--)
        {
            var method = sorted[i];
            if (lookup < method.Start + (ulong)method.Size && (holder is null || holder.Map is null && method.Map is not null))
            {
                holder = method;
            }
        }
        if (holder is null || !_modules.TryGetValue(holder.ModuleId, out var module))
        {
            return null;
        }
        return new CodeSite(module, holder.Token, holder.Map is { } map ? IlOffset(map, (int)(lookup - holder.Start)) : -1);
    }

    // The entry starting at the greatest native offset at or below the one looked up; prolog/epilog/no-mapping are -1.
    private static int IlOffset((int Native, int Il)[] map, int native)
    {
        var best = -1;
        var bestNative = -1;
        foreach (var (entryNative, il) in map)
        {
            if (entryNative <= native && (entryNative > bestNative || (entryNative == bestNative && il >= 0)))
            {
                bestNative = entryNative;
                best = il;
            }
        }
        return best < 0 ? -1 : best;
    }

    private static (int Native, int Il)[] MapOf(MethodILToNativeMapTraceData e) =>
        [.. Enumerable.Range(0, e.CountOfMapEntries).Select(i => (e.NativeOffset(i), e.ILOffset(i)))];

    private sealed class Method(ulong start, int size, int token, long moduleId, long methodId)
    {
        public ulong Start { get; } = start;

        public int Size { get; } = size;

        public int Token { get; } = token;

        public long ModuleId { get; } = moduleId;

        public long MethodId { get; } = methodId;

        public (int Native, int Il)[]? Map { get; set; }
    }
}
