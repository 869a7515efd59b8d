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

/// <summary>The kind of code the blocking call runs in, as a developer would name the place.</summary>
public enum CodePlace
{
    /// <summary>Nothing recognisable below the application code (a continuation, a Task.Run body, a thread of its own).</summary>
    Unknown,

    /// <summary>An MVC controller action (below it: MVC's action method executor).</summary>
    MvcAction,

    /// <summary>A minimal API endpoint (below it: the endpoint's compiled request delegate).</summary>
    MinimalApi,

    /// <summary>A middleware: application code called by the request pipeline, outside any endpoint.</summary>
    Middleware,

    /// <summary>An MVC filter: called by MVC's invoker, not by its action executor.</summary>
    Filter,

    /// <summary>A Razor Page handler.</summary>
    RazorPage,

    /// <summary>A SignalR hub method.</summary>
    Hub,

    /// <summary>A hosted or background service (<c>ExecuteAsync</c>, <c>Microsoft.Extensions.Hosting</c> below).</summary>
    HostedService,

    /// <summary>A timer callback (<c>System.Threading.Timer</c> fired it on a pool thread).</summary>
    Timer,
}

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
}
