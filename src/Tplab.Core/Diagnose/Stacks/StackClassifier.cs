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
/// blocking call, and which application method made that call.
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
    public BlockedStack? Classify(IReadOnlyList<StackFrame> frames)
    {
        if (RoleOf(frames) != ThreadRole.PoolWorkItem)
        {
            return null;
        }
        var userIndex = -1;
        for (var i = 0; i < frames.Count; i++)
        {
            if (IsActionInvoker(frames[i]))
            {
                // Reaching MVC's invoker first means the action's own frame is gone (inlined by the JIT into the
                // compiled invoker lambda); application frames below it, such as middleware, did not make the call.
                break;
            }
            if (!library.IsLibrary(frames[i]))
            {
                userIndex = i;
                break;
            }
        }
        var searchEnd = userIndex >= 0 ? userIndex : frames.Count;
        BlockingCall? call = null;
        for (var i = 0; i < searchEnd; i++)
        {
            // Keep the outermost match: it is the call the application (or its framework) made.
            call = BlockingCallCatalogue.Match(frames[i]) ?? call;
        }
        if (call is null)
        {
            return null;
        }
        var user = userIndex >= 0 ? UserMethod.From(frames[userIndex]) : null;
        return new BlockedStack(call, user, ContextOf(frames, userIndex, user), frames);
    }

    private static bool IsActionInvoker(StackFrame frame) =>
        frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor", StringComparison.Ordinal)
        || frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker", StringComparison.Ordinal);

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
