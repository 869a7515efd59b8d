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

    /// <summary>A Task's run of its delegate (<c>Task.Run(() => ...)</c>'s body is called from here).</summary>
    public static bool IsTaskBody(StackFrame frame) =>
        frame.MethodName == "InnerInvoke" && frame.OpenTypeName is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task`1";

    /// <summary>An async method's box resuming its state machine (<c>AsyncStateMachineBox`1[TResult, TStateMachine].MoveNext</c>).</summary>
    public static bool IsStateMachineBox(StackFrame frame) =>
        frame.OpenTypeName.StartsWith("System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1", StringComparison.Ordinal)
        || frame.OpenTypeName.StartsWith("System.Runtime.CompilerServices.AsyncTaskMethodBuilder+AsyncStateMachineBox`1", StringComparison.Ordinal)
        || frame.OpenTypeName.StartsWith("System.Runtime.CompilerServices.AsyncValueTaskMethodBuilder`1+StateMachineBox`1", StringComparison.Ordinal)
        || frame.OpenTypeName.StartsWith("System.Runtime.CompilerServices.AsyncVoidMethodBuilder", StringComparison.Ordinal);

    /// <summary>
    /// What the runtime frame at <paramref name="index"/> runs, when it only calls the application's delegate or state
    /// machine (which the JIT may inline into it): a Task's body (its InnerInvoke, or, that inlined too, the execution
    /// context's run right above the Task's ExecuteWithThreadLocal), an async method's box, a timer's callback.
    /// </summary>
    public static RunnerKind RunnerOf(IReadOnlyList<StackFrame> frames, int index)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var frame = frames[index];
        if (IsTaskBody(frame) || frame.MethodName is "ExecuteWithThreadLocal" or "ExecuteEntryUnsafe" && frame.OpenTypeName == "System.Threading.Tasks.Task")
        {
            return RunnerKind.TaskBody;
        }
        if (IsStateMachineBox(frame))
        {
            return RunnerKind.StateMachine;
        }
        if (IsTimerQueue(frame))
        {
            return RunnerKind.TimerCallback;
        }
        if (frame.OpenTypeName == "System.Threading.ExecutionContext" && frame.MethodName is "RunFromThreadPoolDispatchLoop" or "RunInternal"
            && index + 1 < frames.Count)
        {
            var below = frames[index + 1];
            return below.OpenTypeName == "System.Threading.Tasks.Task" ? RunnerKind.TaskBody
                : IsStateMachineBox(below) ? RunnerKind.StateMachine
                : IsTimerQueue(below) ? RunnerKind.TimerCallback
                : RunnerKind.None;
        }
        return RunnerKind.None;
    }

    // The timer queue firing a timer: its CallCallback or Fire, or, those inlined, FireNextTimers.
    private static bool IsTimerQueue(StackFrame frame) =>
        frame.OpenTypeName == "System.Threading.TimerQueueTimer" && frame.MethodName is "CallCallback" or "Fire"
        || frame.OpenTypeName == "System.Threading.TimerQueue" && frame.MethodName == "FireNextTimers";

    /// <summary>
    /// The state machine an async method's box runs, from the box's generic arguments
    /// (<c>AsyncStateMachineBox`1[System.Decimal,Shop.PriceClient+&lt;GetAsync&gt;d__3]</c> → <c>Shop.PriceClient+&lt;GetAsync&gt;d__3</c>); null otherwise.
    /// </summary>
    public static string? StateMachineOf(StackFrame frame)
    {
        if (!IsStateMachineBox(frame))
        {
            return null;
        }
        // "…Box`1[System.Decimal,Shop.C+<M>d__3]" (TraceEvent) or "…Box`1[[System.Decimal, System.Private.CoreLib],[Shop.C+<M>d__3, Shop]]" (ClrMD).
        var type = frame.TypeName;
        var box = type.IndexOf("Box`1[", StringComparison.Ordinal);
        if (box < 0)
        {
            return null;
        }
        var arguments = new List<string>();
        var depth = 0;
        var start = box + "Box`1[".Length;
        for (var i = start; i < type.Length && depth >= 0; i++)
        {
            switch (type[i])
            {
                case '[':
                    depth++;
                    break;
                case ']' when depth == 0:
                    arguments.Add(type[start..i]);
                    depth = -1;
                    break;
                case ']':
                    depth--;
                    break;
                case ',' when depth == 0:
                    arguments.Add(type[start..i]);
                    start = i + 1;
                    break;
            }
        }
        var last = arguments.Count > 0 ? arguments[^1].Trim().Trim('[', ']') : "";
        var comma = last.IndexOf(',', StringComparison.Ordinal);
        last = (comma > 0 ? last[..comma] : last).Trim();
        return last.Length > 0 && !last.StartsWith("System.", StringComparison.Ordinal) ? last : null;
    }

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

/// <summary>What a runtime frame that runs the application's code runs.</summary>
public enum RunnerKind
{
    /// <summary>Not such a frame.</summary>
    None,

    /// <summary>A Task's delegate: a <c>Task.Run</c> or <c>StartNew</c> body.</summary>
    TaskBody,

    /// <summary>An async method's state machine.</summary>
    StateMachine,

    /// <summary>A <c>System.Threading.Timer</c>'s callback.</summary>
    TimerCallback,
}
