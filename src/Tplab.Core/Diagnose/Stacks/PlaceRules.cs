using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>
/// Where a blocked stack's code runs (MVC action, minimal API, middleware, filter, DI factory, hosted service, timer...)
/// and in what context (a request's path, a Task.Run body, an async method), read from the frames below the user frame.
/// </summary>
public static class PlaceRules
{
    /// <summary>The place of the code from <paramref name="userIndex"/> down, given the endpoint boundary (or -1) and the application chain.</summary>
    public static CodePlace PlaceOf(IReadOnlyList<StackFrame> frames, int userIndex, int boundaryIndex, IReadOnlyList<UserMethod> chain)
    {
        ArgumentNullException.ThrowIfNull(frames);
        ArgumentNullException.ThrowIfNull(chain);
        var from = Math.Max(userIndex, 0);
        bool Below(string prefix) => frames.Skip(from).Any(f => f.TypeName.StartsWith(prefix, StringComparison.Ordinal));
        // A service factory or constructor runs inside the resolution that needed it (an endpoint's parameter binding,
        // a controller's activation): dependency injection called the application, whatever runs below.
        if (userIndex >= 0 && ResolvedByContainer(frames, userIndex, boundaryIndex))
        {
            return CodePlace.DiFactory;
        }
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
        if (boundaryIndex >= 0 && FrameKinds.RunnerOf(frames, boundaryIndex) == RunnerKind.None)
        {
            var boundary = frames[boundaryIndex];
            var endpointDelegate = FrameKinds.IsCompiledLambda(boundary) && !FrameKinds.IsMiddlewareInvoker(boundary)
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

    /// <summary>The application's outermost frame above the boundary was called by dependency injection's resolver.</summary>
    public static bool ResolvedByContainer(IReadOnlyList<StackFrame> frames, int userIndex, int boundaryIndex)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var end = boundaryIndex >= 0 ? boundaryIndex : frames.Count;
        for (var i = userIndex + 1; i < end; i++)
        {
            if (FrameKinds.IsServiceResolution(frames[i]))
            {
                return true;
            }
            if (frames[i].TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal))
            {
                return false;
            }
        }
        return false;
    }

    private static bool IsMvcExecutorNear(IReadOnlyList<StackFrame> frames, int boundaryIndex) =>
        frames.Skip(boundaryIndex).Take(4).Any(FrameKinds.IsMvcExecutor)
        || frames.Skip(boundaryIndex).Take(6).Any(f => f.MethodName == "InvokeActionMethodAsync"
            && f.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker", StringComparison.Ordinal));

    /// <summary>Request path, Task.Run body, async method, continuation: what the frames below the user frame say about how it runs.</summary>
    public static CallContext ContextOf(IReadOnlyList<StackFrame> frames, int userIndex, UserMethod? user, LibraryCode library)
    {
        ArgumentNullException.ThrowIfNull(frames);
        ArgumentNullException.ThrowIfNull(library);
        var context = CallContext.None;
        if (user?.Shape == UserFrameShape.AsyncStateMachine)
        {
            context |= CallContext.AsyncMethod;
        }
        var outermost = userIndex;
        for (var i = userIndex + 1; i < frames.Count; i++)
        {
            var frame = frames[i];
            var type = frame.OpenTypeName;
            if (type.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal))
            {
                context |= CallContext.RequestPath;
            }
            // A Task.Run/StartNew body is run by the Task itself a few frames below the lambda (InnerInvoke is often
            // inlined, leaving ExecuteWithThreadLocal); the lambda may call helpers, which are the user frame.
            if (type is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task`1"
                && frame.MethodName is "InnerInvoke" or "ExecuteWithThreadLocal" or "ExecuteEntryUnsafe"
                && outermost >= 0 && UserMethod.From(frames[outermost]).Shape == UserFrameShape.Lambda)
            {
                context |= CallContext.TaskRun;
            }
            // An async method resumed by the pool after an await: its state machine, below it the box that ran it, and no
            // request pipeline below at all (a pipeline resumed after its own await still runs the request synchronously).
            if (outermost >= 0 && UserMethod.From(frames[outermost]).Shape == UserFrameShape.AsyncStateMachine
                && (type.StartsWith("System.Runtime.CompilerServices.AsyncTaskMethodBuilder", StringComparison.Ordinal)
                    || type.StartsWith("System.Threading.Tasks.AwaitTaskContinuation", StringComparison.Ordinal)
                    || frame.MethodName == "RunContinuations")
                && !frames.Skip(userIndex + 1).Any(f => f.TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal)))
            {
                context |= CallContext.Continuation;
            }
            if (!frame.IsUnresolved && !library.IsLibrary(frame))
            {
                outermost = i;
            }
        }
        return context;
    }
}
