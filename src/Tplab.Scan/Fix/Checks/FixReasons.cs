namespace Tplab.Scan.Fix.Checks;

/// <summary>
/// Why a finding was refused or stopped at a boundary: a stable id (docs/fix.md lists every one with an example), a
/// short name and what it covers. A behaviour check (<see cref="IsBehaviourCheck"/>) guards what an await would change
/// at run time; the others are shapes tplab does not rewrite.
/// </summary>
public sealed record FixReason(string Id, string Name, string Covers, bool IsBehaviourCheck = false)
{
    /// <summary>The reason's words at the head of a refusal, a boundary or a note: <c>TPFIX001 thread-affine: …</c>.</summary>
    public string Say(string reason) => $"{Id} {Name}: {reason}";
}

/// <summary>
/// The one table of <c>tplab fix</c>'s refusal ids: every refusal and every boundary names one, carried in the text
/// (<c>why:</c>, <c>boundary:</c>, <c>check:</c>), in JSON (<c>check</c>) and in SARIF (<c>properties.fixCheck</c>).
/// An id is never reused for another reason; a wording may change, the id stays.
/// </summary>
public static class FixReasons
{
    /// <summary>A thread-affine region (Monitor, ReaderWriterLock(Slim), Mutex, SpinLock) around a new await: released on another thread it throws.</summary>
    public static readonly FixReason ThreadAffine = new("TPFIX001", "thread-affine", "a new await inside a region a thread owns: Monitor.Enter/TryEnter…Exit, ReaderWriterLockSlim or ReaderWriterLock held, Mutex, SpinLock, a lock", true);

    /// <summary>A catch that reads the exception's shape around a wait that becomes an await (which throws the inner exception, not the AggregateException).</summary>
    public static readonly FixReason ExceptionShape = new("TPFIX002", "exception-shape", "a catch or filter on AggregateException (or reading InnerException(s), Flatten, Handle, the type or the message) around the wait or a caller up the chain", true);

    /// <summary>Thread identity read after a new await, or thread-bound state set in a method made async.</summary>
    public static readonly FixReason ThreadIdentity = new("TPFIX003", "thread-identity", "[ThreadStatic], ThreadLocal<T>, Thread.CurrentThread, the managed thread id read after a new await; culture, principal or AsyncLocal set in a method made async", true);

    /// <summary>A token given to a call that had none (<c>--add-cancellation</c> only): what a cancelled request now skips.</summary>
    public static readonly FixReason Cancellation = new("TPFIX004", "cancellation", "a token passed to a call that could not be cancelled before: a cancelled request now stops there", true);

    /// <summary>An awaited <c>Task.Run(() =&gt; XAsync())</c> unwrapped where the lambda or XAsync reads its thread: it would run on the caller's.</summary>
    public static readonly FixReason ThreadHop = new("TPFIX005", "thread-hop", "[ThreadStatic], ThreadLocal<T>, Thread.CurrentThread, the managed thread id read in a Task.Run lambda or the method it calls, whose Task.Run an await would remove", true);

    /// <summary>The catalogue row has no mechanical async form, or the call is written in a form its rewrite does not take.</summary>
    public static readonly FixReason NoAsyncForm = new("TPFIX010", "no-async-form", "the blocking call has no awaitable equivalent tplab can write (the catalogue row's advice says what to do), or not in the form written (a timeout, a token, an overload without a sibling)");

    /// <summary>The finding's call is not found as an expression at its line and column (a report of other code), or it is a foreach over a query.</summary>
    public static readonly FixReason NotAnExpression = new("TPFIX011", "not-an-expression", "the blocking call is not an expression tplab can rewrite where the finding points (an older report, a foreach over a database query, a call the syntax hides)");

    /// <summary>The site is in a file the loaded projects do not compile, or in generated code.</summary>
    public static readonly FixReason NotSource = new("TPFIX012", "not-source", "the site is in generated code (obj/, *.g.cs, a Razor view or component) or in a file that no loaded project compiles");

    /// <summary>An inactive <c>#if</c> branch of the method calls the same thing: tplab compiles one configuration.</summary>
    public static readonly FixReason InactiveBranch = new("TPFIX013", "inactive-branch", "an inactive preprocessor branch of the method calls the same blocking member");

    /// <summary>C# does not allow an await where the call is (a lock body tplab cannot convert, a query expression, outside a method).</summary>
    public static readonly FixReason AwaitNotAllowed = new("TPFIX020", "await-not-allowed", "where C# allows no await: a query expression, a field initialiser, outside any method");

    /// <summary>A member C# cannot make async: constructor, accessor, operator, finalizer, ref/out/in parameters, iterator, Main, partial or extern, event handler, ref return.</summary>
    public static readonly FixReason CannotBeAsync = new("TPFIX021", "cannot-be-async", "a member that cannot become async: a constructor, property accessor, operator, finalizer, a method with ref/out/in parameters, an iterator, Main, a partial or extern method, an event handler, a ref return, a method without a body");

    /// <summary>The method implements or overrides a package's member, or a member of its family cannot change with it.</summary>
    public static readonly FixReason SignatureFixed = new("TPFIX022", "signature-fixed", "the method implements or overrides a package's member (an interface, a base class, a synchronous MVC filter that cannot switch to its async twin), or a member of its family cannot change with it");

    /// <summary>The method is declared in or called from generated code, which tplab does not edit.</summary>
    public static readonly FixReason GeneratedCode = new("TPFIX023", "generated-code", "the method is declared in generated code or called from it (a Razor view, a source generator's output, a .proto's classes)");

    /// <summary>The code is passed as a delegate whose type returns no task, and that type cannot change.</summary>
    public static readonly FixReason DelegateType = new("TPFIX024", "delegate-type", "a lambda or method group passed as a delegate that returns no task (Action, Func<T>, a delegate type), whose type tplab cannot change");

    /// <summary>A lock whose body must await, or a Mutex a request waits on, cannot become a SemaphoreSlim(1, 1).</summary>
    public static readonly FixReason LockKept = new("TPFIX025", "lock-kept", "a lock whose body must await, or a Mutex a request waits on, cannot become a SemaphoreSlim(1, 1): its object is not a private field declared alone (a Mutex: unnamed, created unowned), it is used other than in lock statements (a Mutex: other than WaitOne followed by a try whose finally releases it, and Dispose), re-entered, or taken where it cannot be awaited");

    /// <summary>The change would reach more methods than <c>--max-methods</c> allows.</summary>
    public static readonly FixReason TooWide = new("TPFIX026", "too-wide", "the change would reach more methods than --max-methods allows");

    /// <summary>The project does not compile before the fix.</summary>
    public static readonly FixReason BuildBefore = new("TPFIX030", "build-before", "the project does not compile before the fix, so a new error could not be told from an old one");

    /// <summary>The rewrite adds a compile error (or an analyzer error with <c>--analyzers</c>).</summary>
    public static readonly FixReason BuildAfter = new("TPFIX031", "build-after", "the rewrite adds a compile error (or, with --analyzers, an analyzer error)");

    /// <summary>An earlier fix of the same run rewrote the code around the site.</summary>
    public static readonly FixReason RewrittenEarlier = new("TPFIX032", "rewritten-earlier", "an earlier fix of the same run rewrote the code around the site: the next run fixes it");

    /// <summary>Roslyn's syntax editor refused the replacement (a shape the rewrite does not take).</summary>
    public static readonly FixReason EditorRefused = new("TPFIX033", "editor-refused", "Roslyn's syntax editor refused the replacement: a shape around the call the rewrite does not take");

    /// <summary>Every reason, in id order: the one table (ids unique, each documented in docs/fix.md).</summary>
    public static IReadOnlyList<FixReason> All { get; } =
    [
        ThreadAffine, ExceptionShape, ThreadIdentity, Cancellation, ThreadHop,
        NoAsyncForm, NotAnExpression, NotSource, InactiveBranch,
        AwaitNotAllowed, CannotBeAsync, SignatureFixed, GeneratedCode, DelegateType, LockKept, TooWide,
        BuildBefore, BuildAfter, RewrittenEarlier, EditorRefused,
    ];

    /// <summary>
    /// The id a refusal's or a boundary's text names first (the outermost reason: a wrapper names its own before the
    /// reasons it quotes), else null.
    /// </summary>
    public static string? IdIn(string? text)
    {
        if (text is null)
        {
            return null;
        }
        var at = -1;
        string? id = null;
        foreach (var reason in All)
        {
            var i = text.IndexOf(reason.Id + " ", StringComparison.Ordinal);
            if (i >= 0 && (at < 0 || i < at))
            {
                (at, id) = (i, reason.Id);
            }
        }
        return id;
    }
}
