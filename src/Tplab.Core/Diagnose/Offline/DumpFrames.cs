using System.Collections.Immutable;
using Microsoft.Diagnostics.Runtime;
using Tplab.Blocking;
using DiagFrame = Tplab.Blocking.StackFrame;

namespace Tplab.Diagnose.Offline;

/// <summary>
/// A dump's managed frames as diagnose's frames: the method's name from ClrMD, and where in its IL the frame was, from
/// the IL-to-native map ClrMD reads from the runtime (as the live path reads the runtime's MethodILToNativeMap events).
/// Every frame of a thread stopped in a wait is a return address: the offset − 1 is looked up, inside the call.
/// </summary>
internal sealed class DumpFrames
{
    private readonly Dictionary<ulong, ImmutableArray<ILToNativeMap>> _maps = [];

    /// <summary>The managed method frames of <paramref name="thread"/>, top first (at most <paramref name="max"/>).</summary>
    public List<DiagFrame> Of(ClrThread thread, int max)
    {
        var frames = new List<DiagFrame>();
        var below = false;
        foreach (var f in thread.EnumerateStackTrace())
        {
            // The runtime's transition frames repeat the method they sit in, but for a P/Invoke the JIT inlined into its
            // caller (a wait handle's WaitOneCore): that frame is the only one left naming the call.
            if (f.Kind != ClrStackFrameKind.ManagedMethod)
            {
                if (frames.Count == 0 && f.Method is { } pinvoke && PInvokeName(pinvoke.Name) is { } inner
                    && DiagFrame.Parse("", pinvoke.Signature ?? "") is { } stub && !frames.Any(x => x.MethodName == inner))
                {
                    frames.Add(new DiagFrame(Path.GetFileNameWithoutExtension(pinvoke.Type?.Module?.Name ?? ""), stub.TypeName, inner));
                }
                below = true;
                continue;
            }
            frames.Add(f.Method is { } method ? Frame(method, f.InstructionPointer, returnAddress: below || frames.Count > 0) : Compiled);
            if (frames.Count >= max)
            {
                break;
            }
        }
        return [.. frames.Select((frame, i) => ReferenceEquals(frame, Compiled) ? CompiledAbove(frames, i) : frame)];
    }

    // The stub the source generator writes for a P/Invoke: "<WaitOneCore>g____PInvoke|0_0" is WaitOneCore's.
    private static string? PInvokeName(string? name) =>
        name is not null && name.StartsWith('<') && name.Contains("PInvoke", StringComparison.Ordinal) && name.IndexOf('>', StringComparison.Ordinal) is > 1 and var end
            ? name[1..end]
            : null;

    // ClrMD names no method for a dynamic method's code (ASP.NET Core's compiled invokers are LCG methods).
    private static readonly DiagFrame Compiled = new("Anonymously Hosted DynamicMethods Assembly", "dynamicClass", "lambda_method");

    /// <summary>
    /// An unnamed dynamic method as the live path would see it: called by the endpoint middleware or MVC's executor, an
    /// endpoint's invoker (closure, target, context: 3 parameters); called by other framework code (UseWhen's branch),
    /// UseMiddleware's invoker of a middleware (closure, middleware, context, services: 4). Called by the application's
    /// own middleware it may be either (the endpoint middleware's call went into the middleware's next()): left unknown
    /// (-1) for the IL to decide which code reaches the call.
    /// </summary>
    private static DiagFrame CompiledAbove(List<DiagFrame> frames, int index)
    {
        var below = frames.Skip(index + 1).FirstOrDefault(f => !f.IsUnresolved && !ReferenceEquals(f, Compiled) && !f.TypeName.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal));
        var endpoint = below is null
            || below.TypeName.StartsWith("Microsoft.AspNetCore.Routing.EndpointMiddleware", StringComparison.Ordinal)
            || below.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.", StringComparison.Ordinal)
            || below.TypeName.StartsWith("Microsoft.Extensions.Internal.ObjectMethodExecutor", StringComparison.Ordinal);
        var framework = below is not null && (below.TypeName.StartsWith("Microsoft.", StringComparison.Ordinal) || below.TypeName.StartsWith("System.", StringComparison.Ordinal));
        return Compiled with { ParameterCount = endpoint ? 3 : framework ? 4 : -1 };
    }

    private DiagFrame Frame(ClrMethod method, ulong ip, bool returnAddress)
    {
        var modulePath = method.Type?.Module?.Name ?? "";
        var frame = DiagFrame.Parse(Path.GetFileNameWithoutExtension(modulePath), method.Signature ?? $"{method.Type?.Name}.{method.Name}");
        if (modulePath.Length == 0 || method.MetadataToken == 0)
        {
            return frame;
        }
        return frame with { Code = new CodeSite(modulePath, method.MetadataToken, IlOffset(method, returnAddress && ip > 0 ? ip - 1 : ip)) };
    }

    private int IlOffset(ClrMethod method, ulong address)
    {
        if (!_maps.TryGetValue(method.MethodDesc, out var map))
        {
            try
            {
                map = method.ILOffsetMap;
            }
            catch (Exception e) when (e is InvalidOperationException or IOException)
            {
                map = [];
            }
            _maps[method.MethodDesc] = map;
        }
        var best = -1;
        foreach (var entry in map)
        {
            if (entry.StartAddress <= address && address <= entry.EndAddress && (best < 0 || entry.ILOffset >= 0))
            {
                best = entry.ILOffset;
            }
        }
        return best < 0 ? -1 : best;
    }
}
