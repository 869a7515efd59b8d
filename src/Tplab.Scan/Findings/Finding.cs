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

    /// <summary>It holds a pool thread on every request through that path.</summary>
    Error,
}

/// <summary>One step of the chain from the entry point to the blocking call.</summary>
/// <param name="Method"><c>Namespace.Type.Method</c> (a lambda is named after the method that holds it).</param>
/// <param name="Display"><c>Type.Method</c>, <c>Type.Method (lambda)</c>.</param>
/// <param name="File">Relative to the scanned root, with '/'.</param>
/// <param name="Line">The line of the call to the next step; for the last, the line of the blocking call.</param>
/// <param name="Column">The column of that call (1-based).</param>
/// <param name="Via">How this step was reached when it was not a plain call: a Task.Run body, one of several implementations...</param>
public sealed record ChainHop(string Method, string Display, string File, int Line, int Column, string? Via);

/// <summary>A blocking call reached from an entry point, with the chain that reaches it, how sure that is, and the fix.</summary>
public sealed record Finding(
    EntryPoint Root,
    BlockingCall Call,
    Severity Severity,
    IReadOnlyList<ChainHop> Chain,
    CallContext Context,
    IReadOnlyList<string> Reasons,
    string Advice)
{
    /// <summary>The innermost application method, the one that makes the blocking call: <c>Namespace.Type.Method</c>.</summary>
    public string UserFrame => Chain[^1].Method;

    /// <summary>Where the blocking call is.</summary>
    public ChainHop Site => Chain[^1];

    /// <summary>The reason of an inline <c>// tplab-ignore: reason</c> that suppresses it, or null.</summary>
    public string? Suppression { get; init; }

    /// <summary>Accepted in the baseline: reported, but not counted for --fail-on.</summary>
    public bool Baselined { get; init; }

    /// <summary>The key a baseline stores: root, user method and blocking call; never a line, so edits do not break it.</summary>
    public BaselineKey Key => new(Root.Key, UserFrame, Call.Name);
}

/// <summary>What identifies a finding across edits.</summary>
public sealed record BaselineKey(string Root, string UserMethod, string BlockingCall);
