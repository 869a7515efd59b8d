using Tplab.Blocking;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>How much a finding matters, in SARIF's words.</summary>
public enum Severity
{
    /// <summary>Waste that holds no thread (<c>await Task.Run(() => cheap work)</c>).</summary>
    Note,

    /// <summary>It may hold a pool thread: in a branch, through one implementation of several, off the request path, a lock with a slow holder, a stream or query of unknown type.</summary>
    Warning,

    /// <summary>It holds a pool thread on every request through that path, or so many request paths reach it that it runs all the time.</summary>
    Error,
}

/// <summary>One step of the chain from the entry point to the blocking call.</summary>
/// <param name="Method"><c>Namespace.Type.Method</c> (a lambda is named after the method that holds it).</param>
/// <param name="Display"><c>Type.Method</c>, <c>Type.Method (lambda)</c>.</param>
/// <param name="File">Relative to the scanned root, with '/'.</param>
/// <param name="Line">The line of the call to the next step (of its member name, for a call over several lines); for the last, of the blocking member.</param>
/// <param name="Column">The column of that member (1-based).</param>
/// <param name="Via">How this step was reached when it was not a plain call: a Task.Run body, one of several implementations...</param>
public sealed record ChainHop(string Method, string Display, string File, int Line, int Column, string? Via);

/// <summary>One entry point that reaches a blocking site: how bad it is from there and how many calls away.</summary>
/// <param name="Depth">Calls from the entry point to the site along its surest path.</param>
public sealed record SiteRoot(EntryPoint Root, Severity Severity, int Depth);

/// <summary>The chain of another entry point to the same site, and why it is not an error from there (SARIF shows a few of them as extra code flows).</summary>
public sealed record RootChain(EntryPoint Root, IReadOnlyList<ChainHop> Chain, IReadOnlyList<string> Reasons);

/// <summary>
/// A blocking site: one blocking call in the solution's code, reported once whatever number of entry points reach
/// it. <see cref="Root"/> is the entry point that gives it its severity (the worst over <see cref="Roots"/>; of those,
/// the one with the shortest chain), and <see cref="Chain"/>, <see cref="Reasons"/> and <see cref="Advice"/> are
/// from that entry point.
/// </summary>
public sealed record Finding(
    string Id,
    BlockingCall Call,
    Severity Severity,
    EntryPoint Root,
    IReadOnlyList<ChainHop> Chain,
    CallContext Context,
    IReadOnlyList<string> Reasons,
    string Advice)
{
    /// <summary>The innermost application method, the one that makes the blocking call: <c>Namespace.Type.Method</c>.</summary>
    public string UserFrame => Chain[^1].Method;

    /// <summary>Where the blocking call is.</summary>
    public ChainHop Site => Chain[^1];

    /// <summary>Every entry point that reaches the site, worst first, then nearest (the first is <see cref="Root"/>).</summary>
    public IReadOnlyList<SiteRoot> Roots { get; init; } = [];

    /// <summary>A few other entry points' chains, shortest first (bounded: SARIF's code flows).</summary>
    public IReadOnlyList<RootChain> OtherChains { get; init; } = [];

    /// <summary>Why the call is judged to block, in words a reviewer can check (the receiver's type, the query's provider, the stream's origin), or null.</summary>
    public string? Evidence { get; init; }

    /// <summary>The reason of an inline <c>// tplab-ignore: reason</c> that suppresses it, or null.</summary>
    public string? Suppression { get; init; }

    /// <summary>From <see cref="Root"/>, the site runs once per process (a singleton built on first use), not on every request.</summary>
    public bool RunsOnce { get; init; }

    /// <summary>The method to make async that most of <see cref="Roots"/> go through, when it is not the blocking call's own (the advice names it).</summary>
    public Layer? Layer { get; init; }

    /// <summary>An error by its reach: a warning from each entry point, reached per request from so many endpoints (<see cref="SiteReach.WideReach"/> or more) that it runs all the time.</summary>
    public bool ByReach { get; init; }

    /// <summary>How many of <see cref="Roots"/> are on the request path (endpoints, middleware, filters...), not background work.</summary>
    public int RequestRoots => Roots.Count(r => PlaceWords.IsRequestPath(r.Root.Place));

    /// <summary>
    /// The files (relative to the scanned root, '/') of every entry point's chain to the site, the surest chain from each
    /// as a walk finds it: what <c>scan --changed-since</c> matches a change against.
    /// </summary>
    public IReadOnlyList<string> ChainFiles { get; init; } = [];

    /// <summary>Accepted in the baseline: reported, but not counted for --fail-on.</summary>
    public bool Baselined { get; init; }

    /// <summary>The id as tplab wrote it before ids named the project (<see cref="FindingId.WithoutProject"/>): how a schema 2 baseline names it (default empty).</summary>
    public string IdWithoutProject { get; init; } = "";

    /// <summary>The key a baseline stores: the site (project, user method, blocking call, which of its calls of that name), never a line or a root.</summary>
    public BaselineKey Key => new(Id, UserFrame, Call.Name) { IdWithoutProject = IdWithoutProject };
}

/// <summary>What identifies a finding across edits: its <see cref="FindingId"/>, with the method and call it is made of for people reading the file.</summary>
public sealed record BaselineKey(string Id, string UserMethod, string BlockingCall)
{
    /// <summary>The finding's id without its project, matched by the entries of a schema 2 baseline; never written (default empty).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string IdWithoutProject { get; init; } = "";

    public bool Equals(BaselineKey? other) => other is not null && Id == other.Id && UserMethod == other.UserMethod && BlockingCall == other.BlockingCall;

    public override int GetHashCode() => (Id, UserMethod, BlockingCall).GetHashCode();
}
