namespace Tplab.Diagnose.Stacks;

/// <summary>Where the blocking call runs, read from the frames below the user frame; shapes the advice.</summary>
[Flags]
public enum CallContext
{
    /// <summary>Nothing recognised below the user frame.</summary>
    None = 0,

    /// <summary>ASP.NET Core frames below: the call runs while a request waits for it.</summary>
    RequestPath = 1,

    /// <summary>The user frame is a lambda run by <c>Task.Run</c>/<c>StartNew</c>: it still runs on a pool thread.</summary>
    TaskRun = 2,

    /// <summary>The user frame is an async method's state machine: the method is async but calls a blocking API.</summary>
    AsyncMethod = 4,
}

/// <summary>One pool-thread stack that is held by a blocking call, classified.</summary>
/// <param name="Call">The outermost catalogue call above the user frame.</param>
/// <param name="User">The application method it is attributed to, or null when no application frame is on the stack.</param>
/// <param name="Context">Where it runs (request path, Task.Run lambda, async method).</param>
/// <param name="Frames">The full stack, top frame first.</param>
public sealed record BlockedStack(BlockingCall Call, UserMethod? User, CallContext Context, IReadOnlyList<StackFrame> Frames);
