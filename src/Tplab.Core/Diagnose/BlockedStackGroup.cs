using Tplab.Blocking;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>
/// The pool threads held by one blocking call made from one application method: how many, what share of all
/// blocked pool-thread time, one trimmed sample stack, and what to do about it.
/// </summary>
/// <param name="BlockingCall">The call that holds the threads (<c>Thread.Sleep</c>, <c>Task.Result</c>, <c>NpgsqlCommand.ExecuteNonQuery</c>).</param>
/// <param name="UserFrame">The application method that made it, lambdas and async state machines folded in (for an inlined method, recovered from the IL or named by MVC's event); null if none is known.</param>
/// <param name="Context">Where the call runs (request path, Task.Run body, async method), from the sample stack.</param>
/// <param name="Threads">Pool threads held on average over the capture (blocked thread-time / capture time).</param>
/// <param name="DistinctThreads">Different pool threads seen held here during the capture.</param>
/// <param name="Share">This group's fraction (0–1) of all blocked pool-thread time in the capture.</param>
/// <param name="Held">Blocked pool-thread time summed over threads.</param>
/// <param name="Stack">One sample stack, top frame first, trimmed to the frames that explain it, each frame named as users read it.</param>
/// <param name="Advice">What to change.</param>
public sealed record BlockedStackGroup(
    BlockingCall BlockingCall,
    UserMethod? UserFrame,
    CallContext Context,
    double Threads,
    int DistinctThreads,
    double Share,
    TimeSpan Held,
    IReadOnlyList<string> Stack,
    string Advice)
{
    /// <summary>The endpoint of most of the held requests (from ASP.NET Core's events), or null when none was seen.</summary>
    public Endpoint? Endpoint { get; init; }

    /// <summary>Other endpoints seen held by the same call from the same method.</summary>
    public int OtherEndpoints { get; init; }

    /// <summary>
    /// The chain from the root (an endpoint's handler, a middleware, a hosted service, a timer, a factory) down to the
    /// method that makes the call, outermost first, each hop with the line of its call to the next; the last is
    /// <see cref="UserFrame"/>, with the line of the blocking call.
    /// </summary>
    public IReadOnlyList<ChainHop> Chain { get; init; } = [];

    /// <summary>What kind of code runs the call (MVC action, minimal API, middleware, filter, DI factory, hosted service...).</summary>
    public CodePlace Place { get; init; }

    /// <summary>For a dependency-injection factory: the service it builds, when the registration says; else null.</summary>
    public string? Service { get; init; }

    /// <summary>A lock the framework takes inside an API the application called (<see cref="Stacks.BlockedStack.FrameworkLock"/>).</summary>
    public bool FrameworkLock { get; init; }

    /// <summary>The line of the blocking call, when the PDBs gave it.</summary>
    public SourceLine? At => Chain.Count > 0 ? Chain[^1].At : null;
}
