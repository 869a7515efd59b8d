using Tplab.Blocking;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>
/// The pool threads held by one blocking call made from one application method: how many, what share of all
/// blocked pool-thread time, one trimmed sample stack, and what to do about it.
/// </summary>
/// <param name="BlockingCall">The call that holds the threads (<c>Thread.Sleep</c>, <c>Task.Result</c>, <c>NpgsqlCommand.ExecuteNonQuery</c>).</param>
/// <param name="UserFrame">The application method that made it, lambdas and async state machines folded in (for an inlined method, named by MVC's or the JIT's events); null if none is known.</param>
/// <param name="Context">Where the call runs (request path, Task.Run body, async method), from the sample stack.</param>
/// <param name="Threads">Pool threads held on average over the capture (blocked thread-time / capture time).</param>
/// <param name="DistinctThreads">Different pool threads seen held here during the capture.</param>
/// <param name="Share">This group's fraction (0–1) of all blocked pool-thread time in the capture.</param>
/// <param name="Held">Blocked pool-thread time summed over threads.</param>
/// <param name="Stack">One sample stack, top frame first, trimmed to the frames that explain it.</param>
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

    /// <summary>The application call chain, outermost first; the last is <see cref="UserFrame"/>.</summary>
    public IReadOnlyList<UserMethod> Chain { get; init; } = [];

    /// <summary>
    /// When no application method is known: the compiled framework frame the application's code was inlined into
    /// (<c>dynamicClass.lambda_method4</c>, a minimal API's request delegate), or null.
    /// </summary>
    public string? InlinedInto { get; init; }

    /// <summary>What kind of code runs the call (MVC action, minimal API, middleware, filter, hosted service...).</summary>
    public CodePlace Place { get; init; }
}
