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
/// Classifies managed stacks (top frame first): is it a pool thread running a work item, is it held by a known
/// blocking call, which application methods made that call (innermost first) and what kind of code they are.
/// </summary>
public sealed class StackClassifier(LibraryCode library)
{
    private const string WorkQueue = "System.Threading.ThreadPoolWorkQueue";

    public StackClassifier()
        : this(new LibraryCode())
    {
    }

    /// <summary>Pool workers start in <c>PortableThreadPool+WorkerThread.WorkerThreadStart</c> (<c>WindowsThreadPool</c> on Windows opt-in) and run items from <c>ThreadPoolWorkQueue.Dispatch</c>.</summary>
    public static ThreadRole RoleOf(IReadOnlyList<StackFrame> frames)
    {
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

    /// <summary>The blocked stack, or null when this is not a pool work item or no catalogue call holds it.</summary>
    public BlockedStack? Classify(IReadOnlyList<StackFrame> frames) => Classify(frames, unrecognisedWait: false);

    /// <summary>
    /// As <see cref="Classify(IReadOnlyList{StackFrame})"/>; with <paramref name="unrecognisedWait"/> (the runtime
    /// reported a wait, or the thread sat outside managed code), a stack no catalogue entry explains is still
    /// returned, as an unrecognised wait named after its top frame, rather than dropped.
    /// </summary>
    public BlockedStack? Classify(IReadOnlyList<StackFrame> frames, bool unrecognisedWait)
    {
        if (RoleOf(frames) != ThreadRole.PoolWorkItem)
        {
            return null;
        }
        var (userIndex, boundaryIndex) = Locate(frames);
        var searchEnd = userIndex >= 0 ? userIndex : boundaryIndex >= 0 ? boundaryIndex : frames.Count;
        BlockingCall? call = null;
        var callIndex = -1;
        for (var i = 0; i < searchEnd; i++)
        {
            // Keep the outermost match: it is the call the application (or its framework) made.
            if (BlockingCallCatalogue.Match(frames[i]) is { } match && !InsideAsyncApi(match, frames, i, searchEnd))
            {
                call = match;
                callIndex = i;
            }
        }
        call = BlockingCallCatalogue.Refine(call, frames, callIndex);
        if (call is null)
        {
            if (!unrecognisedWait || IsIdleWait(frames))
            {
                return null;
            }
            call = BlockingCallCatalogue.Unrecognised(frames);
            callIndex = 0;
        }
        var user = userIndex >= 0 ? UserMethod.From(frames[userIndex]) : null;
        var chainEnd = boundaryIndex >= 0 ? boundaryIndex : AspNetCoreBelow(frames, userIndex);
        var caller = callIndex + 1 < frames.Count ? frames[callIndex + 1] : null;
        var chain = ChainOf(frames, userIndex, chainEnd);
        return new BlockedStack(call, user, ContextOf(frames, userIndex, user), frames)
        {
            Chain = chain,
            Place = PlaceOf(frames, userIndex, boundaryIndex, chain),
            Boundary = boundaryIndex >= 0 && (userIndex < 0 || userIndex > boundaryIndex) ? frames[boundaryIndex] : null,
            Caller = caller,
        };
    }

    /// <summary>
    /// A driver method that an async API runs on its way (Npgsql's <c>ExecuteScalarAsync</c> calls <c>ExecuteScalar(async: true)</c>,
    /// <c>OpenAsync</c> calls <c>Open(async: true)</c>): the names match the catalogue's synchronous calls, but the thread only
    /// passes through (a socket send's system call, seen as an External sample). Below it, before the application, an
    /// <c>...Async</c> library method says which API was called. A real wait inside an async API still matches its own entry.
    /// </summary>
    private bool InsideAsyncApi(BlockingCall match, IReadOnlyList<StackFrame> frames, int index, int end)
    {
        if (match.Kind != BlockingKind.SyncDatabaseIO)
        {
            return false;
        }
        for (var i = index + 1; i < end; i++)
        {
            if (!frames[i].IsUnresolved && library.IsLibrary(frames[i]) && UserMethod.From(frames[i]).MethodName.EndsWith("Async", StringComparison.Ordinal))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// The innermost application frame above the endpoint boundary, and that boundary: MVC's action executor or
    /// an endpoint's compiled request delegate. Application frames below the boundary (middleware) did not make the call.
    /// </summary>
    private (int User, int Boundary) Locate(IReadOnlyList<StackFrame> frames)
    {
        var user = -1;
        var sawCall = false;
        for (var i = 0; i < frames.Count; i++)
        {
            if (IsEndpointBoundary(frames, i))
            {
                return (user, i);
            }
            var isCall = BlockingCallCatalogue.Match(frames[i]) is not null;
            // ASP.NET Core does not block by itself: a blocking call sitting on one of its frames was made by code the
            // JIT inlined into it (a filter into MVC's invoker, through PGO's guarded devirtualization), not by the
            // application frame further down (the middleware that only awaited next()).
            if (user < 0 && sawCall && !isCall && frames[i].TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal))
            {
                return (-1, i);
            }
            sawCall |= isCall;
            if (user < 0 && !library.IsLibrary(frames[i]))
            {
                user = i;
            }
        }
        return (user, -1);
    }

    private bool IsEndpointBoundary(IReadOnlyList<StackFrame> frames, int i)
    {
        var frame = frames[i];
        if (IsMvcExecutor(frame) || frame.TypeName.StartsWith("Microsoft.AspNetCore.Http.RequestDelegateFactory", StringComparison.Ordinal))
        {
            return true;
        }
        // The compiled invoker of an MVC action or a minimal API (dynamicClass.lambda_method12) is called by
        // ASP.NET Core, or straight from the middleware that called next() once the endpoint middleware tail-called it.
        // Other compiled lambdas (EF Core's materializers, user expression trees) are called by other library code.
        if (!frame.TypeName.StartsWith("dynamicClass", StringComparison.Ordinal) || !frame.MethodName.StartsWith("lambda_method", StringComparison.Ordinal))
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
    private static bool IsMiddlewareInvoker(StackFrame frame) =>
        frame.TypeName.StartsWith("dynamicClass", StringComparison.Ordinal) && frame.MethodName.StartsWith("lambda_method", StringComparison.Ordinal)
        && frame.ParameterCount == 4;

    private static bool IsMvcExecutor(StackFrame frame) =>
        frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor", StringComparison.Ordinal)
        || frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.RazorPages.Infrastructure.ExecutorFactory", StringComparison.Ordinal);

    private static bool IsAsyncPlumbing(StackFrame frame) =>
        frame.TypeName.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal);

    // A pool thread parked in the runtime's own wait for work, or a timer/IO completion between items: not held by the application.
    private static bool IsIdleWait(IReadOnlyList<StackFrame> frames) =>
        frames.Count == 0 || frames.TakeWhile(f => f.IsUnresolved).Count() == frames.Count
        || frames.FirstOrDefault(f => !f.IsUnresolved) is { } top
           && (top.TypeName.StartsWith("System.Threading.ThreadPoolWorkQueue", StringComparison.Ordinal)
               || top.TypeName.StartsWith("System.Threading.LowLevel", StringComparison.Ordinal)
               || top.TypeName.StartsWith("System.Threading.PortableThreadPool", StringComparison.Ordinal)
               || top.TypeName.StartsWith("System.GC", StringComparison.Ordinal)
               || top.TypeName.StartsWith("System.Diagnostics.Tracing.", StringComparison.Ordinal));

    // The chain ends where ASP.NET Core called the application's code (MVC's invoker calling a filter), or where a task
    // that completed ran its continuations: application frames further down (a middleware that awaited next(), the
    // awaited method that completed and resumed its caller) did not lead to the call.
    private static int AspNetCoreBelow(IReadOnlyList<StackFrame> frames, int userIndex)
    {
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

    private IReadOnlyList<UserMethod> ChainOf(IReadOnlyList<StackFrame> frames, int userIndex, int end)
    {
        if (userIndex < 0)
        {
            return [];
        }
        var chain = new List<UserMethod>();
        for (var i = end - 1; i >= userIndex; i--)
        {
            if (library.IsLibrary(frames[i]))
            {
                continue;
            }
            var method = UserMethod.From(frames[i]);
            // An async method shows twice (its stub and its state machine's MoveNext): one link.
            if (chain.Count == 0 || chain[^1].FullName != method.FullName)
            {
                chain.Add(method);
            }
        }
        return chain;
    }

    private static CodePlace PlaceOf(IReadOnlyList<StackFrame> frames, int userIndex, int boundaryIndex, IReadOnlyList<UserMethod> chain)
    {
        var from = Math.Max(userIndex, 0);
        bool Below(string prefix) => frames.Skip(from).Any(f => f.TypeName.StartsWith(prefix, StringComparison.Ordinal));
        if (Below("Microsoft.AspNetCore.SignalR."))
        {
            return CodePlace.Hub;
        }
        if (Below("Microsoft.AspNetCore.Mvc.RazorPages."))
        {
            return CodePlace.RazorPage;
        }
        if (Below("Microsoft.AspNetCore.Mvc."))
        {
            // An action runs above MVC's executor; a filter is called by the invoker directly.
            return boundaryIndex >= 0 && IsMvcExecutorNear(frames, boundaryIndex) ? CodePlace.MvcAction : CodePlace.Filter;
        }
        if (boundaryIndex >= 0)
        {
            var boundary = frames[boundaryIndex];
            var endpointDelegate = boundary.TypeName.StartsWith("dynamicClass", StringComparison.Ordinal) && !IsMiddlewareInvoker(boundary)
                || boundary.TypeName.StartsWith("Microsoft.AspNetCore.Http.RequestDelegateFactory", StringComparison.Ordinal);
            return endpointDelegate ? CodePlace.MinimalApi : CodePlace.Middleware;
        }
        if (Below("Microsoft.AspNetCore."))
        {
            return CodePlace.Middleware;
        }
        // BackgroundService.ExecuteAsync, or a Task.Run body or continuation written in it (a lambda folds into its method):
        // the work item's stack holds no hosting frame, but the chain starts in the service.
        if (Below("Microsoft.Extensions.Hosting.") || chain.Any(m => m.MethodName == "ExecuteAsync"))
        {
            return CodePlace.HostedService;
        }
        return Below("System.Threading.TimerQueue") ? CodePlace.Timer : CodePlace.Unknown;
    }

    private static bool IsMvcExecutorNear(IReadOnlyList<StackFrame> frames, int boundaryIndex) =>
        frames.Skip(boundaryIndex).Take(4).Any(IsMvcExecutor)
        || frames.Skip(boundaryIndex).Take(6).Any(f => f.MethodName == "InvokeActionMethodAsync"
            && f.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker", StringComparison.Ordinal));

    private static CallContext ContextOf(IReadOnlyList<StackFrame> frames, int userIndex, UserMethod? user)
    {
        var context = CallContext.None;
        if (user?.Shape == UserFrameShape.AsyncStateMachine)
        {
            context |= CallContext.AsyncMethod;
        }
        for (var i = userIndex + 1; i < frames.Count; i++)
        {
            var type = frames[i].OpenTypeName;
            if (type.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal))
            {
                context |= CallContext.RequestPath;
            }
            // Task.Run/StartNew bodies are run by the Task itself a few frames below the lambda
            // (InnerInvoke is often inlined, leaving ExecuteWithThreadLocal).
            if (user?.Shape == UserFrameShape.Lambda && i <= userIndex + 4
                && type is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task`1"
                && frames[i].MethodName is "InnerInvoke" or "ExecuteWithThreadLocal" or "ExecuteEntryUnsafe")
            {
                context |= CallContext.TaskRun;
            }
        }
        return context;
    }
}
