using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>One pool-thread stack that is held by a blocking call, classified.</summary>
/// <param name="Call">The outermost catalogue call above the user frame.</param>
/// <param name="User">The innermost application method on the stack, or null when no application frame is above the framework boundary.</param>
/// <param name="Context">Where it runs (request path, Task.Run lambda, async method).</param>
/// <param name="Frames">The full stack, top frame first.</param>
public sealed record BlockedStack(BlockingCall Call, UserMethod? User, CallContext Context, IReadOnlyList<StackFrame> Frames)
{
    /// <summary>The application frames above the framework boundary, outermost first (the last one is <see cref="User"/>).</summary>
    public IReadOnlyList<UserMethod> Chain { get; init; } = [];

    /// <summary>What kind of code runs the call.</summary>
    public CodePlace Place { get; init; }

    /// <summary>
    /// The framework frame the application code sits on when that code may have been inlined into it: MVC's or a
    /// minimal API's compiled invoker (<c>dynamicClass.lambda_method5</c>). Null when there is no such frame.
    /// </summary>
    public StackFrame? Boundary { get; init; }

    /// <summary>The frame that directly called the blocking API (application or framework), for inlining look-ups.</summary>
    public StackFrame? Caller { get; init; }

    /// <summary>
    /// A lock the framework (or a library) takes inside an API the application called: <see cref="Caller"/> is library
    /// code that runs no application delegate (a timer queue's lock under <c>Task.Delay</c>, a connection pool's under
    /// <c>HttpClient.SendAsync</c>). Such locks are held for microseconds; their waits are the CPU the holder did not get.
    /// </summary>
    public bool FrameworkLock { get; init; }
}

/// <summary>The advice for a classified stack: <see cref="BlockingAdvice"/> fed with what the stack says.</summary>
public static class BlockedStackAdvice
{
    /// <summary>One or two sentences for <paramref name="stack"/>; <paramref name="who"/> overrides the method named (for an inlined action).</summary>
    public static string Advice(this BlockedStack stack, UserMethod? who = null, UserMethod? owner = null)
    {
        ArgumentNullException.ThrowIfNull(stack);
        return BlockingAdvice.For(stack.Call, stack.Place, stack.Context, (who ?? stack.User)?.DisplayName, owner?.DisplayName);
    }
}
