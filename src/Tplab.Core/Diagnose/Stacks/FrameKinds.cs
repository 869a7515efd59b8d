using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>What a stack says about its thread.</summary>
public enum ThreadRole
{
    /// <summary>Not a thread-pool worker (main thread, Kestrel heartbeat, the socket event loop, timers).</summary>
    NotPool,

    /// <summary>A pool worker waiting for work: idle, not blocked.</summary>
    IdlePoolThread,

    /// <summary>A pool worker running a work item (a request, a continuation, a <c>Task.Run</c> body).</summary>
    PoolWorkItem,
}

/// <summary>
/// What single frames are to the runtime and ASP.NET Core: the pool's dispatch loop, an endpoint's compiled invoker,
/// MVC's executor, async plumbing, a worker's idle wait. The place rules (<see cref="PlaceRules"/>) and the classifier
/// read stacks through these.
/// </summary>
public static class FrameKinds
{
    private const string WorkQueue = "System.Threading.ThreadPoolWorkQueue";

    /// <summary>Pool workers start in <c>PortableThreadPool+WorkerThread.WorkerThreadStart</c> (<c>WindowsThreadPool</c> on Windows opt-in) and run items from <c>ThreadPoolWorkQueue.Dispatch</c>.</summary>
    public static ThreadRole RoleOf(IReadOnlyList<StackFrame> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var pool = false;
        foreach (var frame in frames)
        {
            if (frame.MethodName == "Dispatch" && frame.OpenTypeName == WorkQueue)
            {
                return ThreadRole.PoolWorkItem;
            }
            pool |= frame.MethodName == "WorkerThreadStart" && frame.OpenTypeName.Contains("ThreadPool", StringComparison.Ordinal);
        }
        return pool ? ThreadRole.IdlePoolThread : ThreadRole.NotPool;
    }

    /// <summary>A compiled expression (<c>dynamicClass.lambda_method12</c>): ASP.NET Core's invokers, EF Core's materializers, user expression trees.</summary>
    public static bool IsCompiledLambda(StackFrame frame) =>
        frame.TypeName.StartsWith("dynamicClass", StringComparison.Ordinal) && frame.MethodName.StartsWith("lambda_method", StringComparison.Ordinal);

    /// <summary>
    /// The frame that runs an endpoint: MVC's action executor, the request delegate factory, or a compiled invoker (of an
    /// MVC action or a minimal API, called by ASP.NET Core or straight from the middleware whose next() reached it, or
    /// UseMiddleware's invoker of a middleware). Other compiled lambdas are called by other library code.
    /// </summary>
    public static bool IsEndpointBoundary(IReadOnlyList<StackFrame> frames, int i, LibraryCode library)
    {
        ArgumentNullException.ThrowIfNull(frames);
        ArgumentNullException.ThrowIfNull(library);
        var frame = frames[i];
        if (IsMvcExecutor(frame) || frame.TypeName.StartsWith("Microsoft.AspNetCore.Http.RequestDelegateFactory", StringComparison.Ordinal))
        {
            return true;
        }
        if (!IsCompiledLambda(frame))
        {
            return false;
        }
        if (IsMiddlewareInvoker(frame))
        {
            return true;
        }
        for (var j = i + 1; j < frames.Count; j++)
        {
            var below = frames[j];
            if (below.IsUnresolved || IsAsyncPlumbing(below))
            {
                continue;
            }
            return below.TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal) || !library.IsLibrary(below);
        }
        return false;
    }

    /// <summary>
    /// UseMiddleware's compiled invoker for a middleware whose InvokeAsync takes services besides the HttpContext:
    /// <c>lambda_method(Closure, object middleware, HttpContext, IServiceProvider)</c>. The middleware's code may be inlined into it.
    /// An endpoint's delegate takes (Closure, target, HttpContext) and MVC's (Closure, controller, object[]).
    /// </summary>
    public static bool IsMiddlewareInvoker(StackFrame frame) => IsCompiledLambda(frame) && frame.ParameterCount == 4;

    /// <summary>MVC's or Razor Pages' executor of an action or page handler.</summary>
    public static bool IsMvcExecutor(StackFrame frame) =>
        frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor", StringComparison.Ordinal)
        || frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.RazorPages.Infrastructure.ExecutorFactory", StringComparison.Ordinal);

    /// <summary>The async method builders and awaiters between a caller and its async callee.</summary>
    public static bool IsAsyncPlumbing(StackFrame frame) =>
        frame.TypeName.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal);

    /// <summary>A frame of dependency injection's service resolution (a factory runs above it).</summary>
    public static bool IsServiceResolution(StackFrame frame) =>
        frame.TypeName.StartsWith("Microsoft.Extensions.DependencyInjection.ServiceLookup.", StringComparison.Ordinal);

    /// <summary>A pool thread parked in the runtime's own wait for work, or a timer/IO completion between items: not held by the application.</summary>
    public static bool IsIdleWait(IReadOnlyList<StackFrame> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        return frames.Count == 0 || frames.TakeWhile(f => f.IsUnresolved).Count() == frames.Count
            || frames.FirstOrDefault(f => !f.IsUnresolved) is { } top
               && (top.TypeName.StartsWith("System.Threading.ThreadPoolWorkQueue", StringComparison.Ordinal)
                   || top.TypeName.StartsWith("System.Threading.LowLevel", StringComparison.Ordinal)
                   || top.TypeName.StartsWith("System.Threading.PortableThreadPool", StringComparison.Ordinal)
                   || top.TypeName.StartsWith("System.GC", StringComparison.Ordinal)
                   || top.TypeName.StartsWith("System.Diagnostics.Tracing.", StringComparison.Ordinal));
    }

    /// <summary>
    /// Where the application's chain ends below the user frame: where ASP.NET Core called the application's code (MVC's
    /// invoker calling a filter), or where a task that completed ran its continuations. Application frames further down
    /// (a middleware that awaited next(), the awaited method that completed and resumed its caller) did not lead to the call.
    /// </summary>
    public static int AspNetCoreBelow(IReadOnlyList<StackFrame> frames, int userIndex)
    {
        ArgumentNullException.ThrowIfNull(frames);
        for (var i = Math.Max(userIndex, 0) + 1; i < frames.Count; i++)
        {
            if (frames[i].TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal)
                || frames[i].MethodName is "RunContinuations" or "RunOrScheduleAction" && frames[i].TypeName.StartsWith("System.Threading.Tasks.", StringComparison.Ordinal))
            {
                return i;
            }
        }
        return frames.Count;
    }
}
