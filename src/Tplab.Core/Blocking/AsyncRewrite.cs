namespace Tplab.Blocking;

/// <summary>How a blocking call becomes an awaited one: the shape <c>tplab fix</c> gives it.</summary>
public enum AsyncRewriteKind
{
    /// <summary>No mechanical rewrite: the fix is refused with <see cref="AsyncRewrite.Advice"/>.</summary>
    None,

    /// <summary><c>t.Result</c>, <c>t.Wait()</c>, <c>t.GetAwaiter().GetResult()</c> → <c>await t</c>.</summary>
    AwaitTask,

    /// <summary><c>Task.WaitAll(ts)</c> → <c>await Task.WhenAll(ts)</c>.</summary>
    WhenAll,

    /// <summary><c>Task.WaitAny(ts)</c> → <c>await Task.WhenAny(ts)</c> (only where its index is not used).</summary>
    WhenAny,

    /// <summary><c>Thread.Sleep(x)</c> → <c>await Task.Delay(x)</c>.</summary>
    Delay,

    /// <summary><c>x.M(args)</c> → <c>await x.MAsync(args)</c>, where the type (or an extension in scope) really has that sibling, returning the same result.</summary>
    Sibling,

    /// <summary>
    /// <c>lock (gate) { … }</c> → <c>await gate.WaitAsync(); try { … } finally { gate.Release(); }</c>, the lock object a
    /// <c>SemaphoreSlim(1, 1)</c>: only where it is private to its type and every lock on it changes too; else refused with <see cref="AsyncRewrite.Advice"/>.
    /// </summary>
    Semaphore,

    /// <summary>
    /// <c>Parallel.ForEach(source, item =&gt; …)</c> → <c>await Parallel.ForEachAsync(source, (item, token) =&gt; …)</c>
    /// (<c>Parallel.For</c> → <c>ForAsync</c>), where the body takes the item alone; else refused with <see cref="AsyncRewrite.Advice"/>.
    /// </summary>
    ParallelAsync,

    /// <summary>
    /// A wait handle its type owns becomes the awaited form of what it is used as, where every use of it changes too:
    /// a <c>ManualResetEventSlim</c>/<c>ManualResetEvent</c> only its own type can reach a <c>TaskCompletionSource</c>
    /// (<c>e.Wait()</c> → <c>await e.Task</c>, <c>e.Set()</c> → <c>e.TrySetResult()</c>); a private, unnamed
    /// <c>Mutex</c> a <c>SemaphoreSlim(1, 1)</c> (<c>m.WaitOne()</c> → <c>await m.WaitAsync()</c>, <c>m.ReleaseMutex()</c>
    /// → <c>m.Release()</c>); any other handle (a Semaphore, an AutoResetEvent, one code outside can reach or reset) is
    /// refused with <see cref="AsyncRewrite.Advice"/>.
    /// </summary>
    Completion,

    /// <summary>
    /// EF Core's <c>RemoveRange(query)</c> → <c>RemoveRange(await query.ToListAsync())</c>, where the query is built on a
    /// <c>DbSet</c>; else refused with <see cref="AsyncRewrite.Advice"/>.
    /// </summary>
    QueryList,
}

/// <summary>
/// A catalogue row's rewrite: its shape, for <see cref="AsyncRewriteKind.None"/> what to do by hand, and for a
/// <see cref="AsyncRewriteKind.Sibling"/> whose name is not the call's plus <c>Async</c> (a property read:
/// <c>Request.Form</c> → <c>ReadFormAsync</c>) the sibling's name.
/// </summary>
public sealed record AsyncRewrite(AsyncRewriteKind Kind, string? Advice = null, string? Member = null)
{
    public static readonly AsyncRewrite AwaitTask = new(AsyncRewriteKind.AwaitTask);
    public static readonly AsyncRewrite WhenAll = new(AsyncRewriteKind.WhenAll);
    public static readonly AsyncRewrite WhenAny = new(AsyncRewriteKind.WhenAny);
    public static readonly AsyncRewrite Delay = new(AsyncRewriteKind.Delay);
    public static readonly AsyncRewrite Sibling = new(AsyncRewriteKind.Sibling);

    /// <summary>The async method <paramref name="member"/> on the same receiver.</summary>
    public static AsyncRewrite SiblingNamed(string member) => new(AsyncRewriteKind.Sibling, Member: member);

    /// <summary>No mechanical rewrite; <paramref name="advice"/> says what to do by hand.</summary>
    public static AsyncRewrite None(string advice) => new(AsyncRewriteKind.None, advice);

    /// <summary>The rewrite of a family when its row names none (or no row names the call: source-only rules).</summary>
    public static AsyncRewrite For(BlockingKind kind) => kind switch
    {
        BlockingKind.SyncOverAsync => AwaitTask,
        BlockingKind.Sleep => Delay,
        BlockingKind.SyncDatabaseIO or BlockingKind.SyncHttp or BlockingKind.SyncSocketIO or BlockingKind.SyncStreamIO => Sibling,
        BlockingKind.Lock => new(AsyncRewriteKind.Semaphore, "a lock cannot be held across an await: keep the blocking work out of the lock, or use a SemaphoreSlim(1, 1) with WaitAsync/Release in a try/finally where the lock object is private to its type"),
        BlockingKind.Parallel => new(AsyncRewriteKind.ParallelAsync, "Parallel loops wait on the calling thread: use Parallel.ForEachAsync, or start the tasks and await Task.WhenAll"),
        BlockingKind.TaskRunOffload => None("await the work directly rather than through Task.Run; it does not block, so only the hop is saved"),
        _ => None("no awaitable form of this call is known: look for the library's async API or move the wait off the request path"),
    };
}
