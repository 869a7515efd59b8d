namespace Tplab.Scan.Fix.Checks;

/// <summary>A named check a rewrite must pass before it is kept: its stable id (docs/fix.md lists them), its name and what it guards.</summary>
public sealed record BehaviourCheck(string Id, string Name, string Guards)
{
    /// <summary>The check's words at the head of a refusal, a boundary or a note: <c>TPFIX001 thread-affine: …</c>.</summary>
    public string Say(string reason) => $"{Id} {Name}: {reason}";
}

/// <summary>
/// The checks that keep what the code does when a wait becomes an <c>await</c>: compiling is not enough. Each has a stable
/// id carried in the text, JSON and SARIF outputs; a refusal by a check keeps the catalogue's advice.
/// </summary>
public static class BehaviourChecks
{
    /// <summary>A thread-affine region (Monitor, ReaderWriterLock(Slim), Mutex, SpinLock) around a new await: released on another thread it throws.</summary>
    public static readonly BehaviourCheck ThreadAffine = new("TPFIX001", "thread-affine", "a new await inside a region a thread owns: Monitor.Enter/TryEnter…Exit, ReaderWriterLockSlim or ReaderWriterLock held, Mutex, SpinLock, a lock");

    /// <summary>A catch that reads the exception's shape around a wait that becomes an await (which throws the inner exception, not the AggregateException).</summary>
    public static readonly BehaviourCheck ExceptionShape = new("TPFIX002", "exception-shape", "a catch or filter on AggregateException (or reading InnerException(s), Flatten, Handle, the type or the message) around the wait or a caller up the chain");

    /// <summary>Thread identity read after a new await, or thread-bound state set in a method made async.</summary>
    public static readonly BehaviourCheck ThreadIdentity = new("TPFIX003", "thread-identity", "[ThreadStatic], ThreadLocal<T>, Thread.CurrentThread, the managed thread id read after a new await; culture, principal or AsyncLocal set in a method made async");

    /// <summary>A token given to a call that had none (<c>--add-cancellation</c> only): what a cancelled request now skips.</summary>
    public static readonly BehaviourCheck Cancellation = new("TPFIX004", "cancellation", "a token passed to a call that could not be cancelled before: a cancelled request now stops there");

    /// <summary>An awaited <c>Task.Run(() =&gt; XAsync())</c> unwrapped where the lambda or XAsync reads its thread: it would run on the caller's.</summary>
    public static readonly BehaviourCheck ThreadHop = new("TPFIX005", "thread-hop", "[ThreadStatic], ThreadLocal<T>, Thread.CurrentThread, the managed thread id read in a Task.Run lambda or the method it calls, whose Task.Run an await would remove");

    public static IReadOnlyList<BehaviourCheck> All { get; } = [ThreadAffine, ExceptionShape, ThreadIdentity, Cancellation, ThreadHop];

    /// <summary>The id of the first check named in <paramref name="text"/> (a refusal's reason, a boundary), else null.</summary>
    public static string? IdIn(string? text) =>
        text is null ? null : All.Where(c => text.Contains(c.Id, StringComparison.Ordinal)).Select(c => c.Id).FirstOrDefault();
}
