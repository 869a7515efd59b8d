using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Tests.Support;
using static Tplab.Tests.Scan.Fix.FixCompletionTests;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>MutexToSemaphore</c>: a private, unnamed Mutex becomes a SemaphoreSlim(1, 1) with every use, proven by running
/// the code: a license store as ShopApp writes it (the wait, a helper that sleeps inside the region, the release in
/// the finally; timed waits in ms and TimeSpan; Dispose) compiled in memory before and after each of the two fixes that
/// convert it — the Sleep inside the region (TPFIX001 before this rewrite) and the WaitOne itself — and called on the
/// same paths: uncontended, 8 callers at once (never two inside), a timed wait that times out, a timeout below -1 ms,
/// an exception inside the region (the next caller gets in), after Dispose. What a semaphore cannot stand for is refused.
/// </summary>
[ParallelSafe]
public sealed class FixMutexTests
{
    private const string Store = """
        using System;
        using System.Threading;
        public sealed class LicenseStore : IDisposable
        {
            private readonly Mutex _file = new();
            private int _inside;
            private int _most;
            private int _reads;
            public int Inside => Volatile.Read(ref _inside);
            public int Most => Volatile.Read(ref _most);
            public string Read(int hold, bool fail)
            {
                _file.WaitOne();
                try
                {
                    var now = Interlocked.Increment(ref _inside);
                    int seen;
                    while ((seen = Volatile.Read(ref _most)) < now && Interlocked.CompareExchange(ref _most, now, seen) != seen)
                    {
                    }
                    LicenseFile.Parse(hold);
                    if (fail)
                    {
                        throw new InvalidOperationException("the license share is offline");
                    }
                    return "licenses " + ++_reads;
                }
                finally
                {
                    Interlocked.Decrement(ref _inside);
                    _file.ReleaseMutex();
                }
            }
            public string Keep(ManualResetEventSlim until)
            {
                _file.WaitOne();
                try
                {
                    Interlocked.Increment(ref _inside);
                    until.Wait();
                    return "kept";
                }
                finally
                {
                    Interlocked.Decrement(ref _inside);
                    _file.ReleaseMutex();
                }
            }
            public bool TryRead(int timeoutMs)
            {
                if (!_file.WaitOne(timeoutMs))
                {
                    return false;
                }
                try
                {
                    _reads++;
                    return true;
                }
                finally
                {
                    _file.ReleaseMutex();
                }
            }
            public bool TryReadFor(int ms)
            {
                if (_file.WaitOne(TimeSpan.FromMilliseconds(ms)))
                {
                    try
                    {
                        _reads++;
                        return true;
                    }
                    finally
                    {
                        _file.ReleaseMutex();
                    }
                }
                return false;
            }
            public void Dispose() => _file.Dispose();
        }
        internal static class LicenseFile
        {
            // Stands for reading the file from the network share.
            public static void Parse(int ms) => Thread.Sleep(ms);
        }
        """;

    private static readonly BlockingCall Sleep = new(BlockingKind.Sleep, "Thread.Sleep", new StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Sleep"));
    private static readonly BlockingCall WaitOne = new(BlockingKind.SyncWait, "WaitHandle.WaitOne", new StackFrame("System.Private.CoreLib", "System.Threading.WaitHandle", "WaitOne"));

    // The site each fix starts from: the Sleep inside the region (the mutex converted on the way up), or the wait.
    private static Task<(string? After, string? Refusal)> FixAsync(string site) =>
        site == "sleep" ? SiteRewriteTests.RewriteAsync(Store, "Thread.Sleep", Sleep) : SiteRewriteTests.RewriteAsync(Store, "_file.WaitOne();", WaitOne);

    [Theory]
    [InlineData("sleep")]
    [InlineData("wait")]
    public async Task PrivateMutex_BecomesASemaphoreWithEveryUse(string site)
    {
        var (after, refusal) = await FixAsync(site);

        Assert.Null(refusal);
        var text = SiteRewriteTests.Squash(after);
        Assert.Contains("private readonly SemaphoreSlim _file = new(1, 1);", text, StringComparison.Ordinal);
        Assert.Equal(2, text.Split("await _file.WaitAsync();").Length - 1);
        Assert.Contains("if (!await _file.WaitAsync(TimeSpan.FromMilliseconds(timeoutMs)))", text, StringComparison.Ordinal);
        Assert.Contains("if (await _file.WaitAsync(TimeSpan.FromMilliseconds(ms)))", text, StringComparison.Ordinal);
        Assert.Equal(4, text.Split("_file.Release();").Length - 1);
        Assert.Contains("public void Dispose() => _file.Dispose();", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Mutex", text, StringComparison.Ordinal);
        // The Sleep inside the region is no longer in a thread-owned one: it is rewritten as any other.
        Assert.Equal(site == "sleep", text.Contains("Task.Delay(ms)", StringComparison.Ordinal));
    }

    public static TheoryData<string, string, string> StorePaths => new()
    {
        // uncontended: in and out, the timed waits get it
        { "sleep", "uncontended", "licenses 1 True True" },
        { "wait", "uncontended", "licenses 1 True True" },
        // 8 callers at once: each gets in once, never two inside
        { "sleep", "contended", "licenses 1..8, most inside at once 1" },
        { "wait", "contended", "licenses 1..8, most inside at once 1" },
        // held by another caller: the timed waits answer false without entering; once released, true
        { "sleep", "timed-out", "False False kept True licenses 2" },
        { "wait", "timed-out", "False False kept True licenses 2" },
        // a timeout below -1 ms: the same exception from both waits
        { "sleep", "bad-timeout", "ArgumentOutOfRangeException ArgumentOutOfRangeException" },
        { "wait", "bad-timeout", "ArgumentOutOfRangeException ArgumentOutOfRangeException" },
        // an exception inside the region: the same exception, and the next caller (another thread) gets in
        { "sleep", "throws", "InvalidOperationException True licenses 2" },
        { "wait", "throws", "InvalidOperationException True licenses 2" },
        // after Dispose: the same exception from every wait
        { "sleep", "disposed", "ObjectDisposedException ObjectDisposedException" },
        { "wait", "disposed", "ObjectDisposedException ObjectDisposedException" },
    };

    [Theory]
    [MemberData(nameof(StorePaths))]
    public async Task Store_BeforeAndAfterTheFix_SameAnswersAndExceptions(string site, string path, string expected)
    {
        var (after, refusal) = await FixAsync(site);
        Assert.Null(refusal);

        Assert.Equal(expected, await StorePathAsync(FixCompletionTests.Load(Store, "LicenseStore"), path));
        Assert.Equal(expected, await StorePathAsync(FixCompletionTests.Load(after!, "LicenseStore"), path));
    }

    public static TheoryData<string, string> Refused => new()
    {
        // shared with other processes
        { "private readonly Mutex _m = new(false, \"Global\\\\licenses\");", "is named (\"Global\\\\licenses\")" },
        { "private readonly Mutex _m = Mutex.OpenExisting(\"Global\\\\licenses\");", "is opened by Mutex.OpenExisting" },
        // owned by the thread that built it
        { "private readonly Mutex _m = new(true);", "is created owned (initiallyOwned: true)" },
        // code tplab cannot see may wait on it
        { "public readonly Mutex _m = new();", "is not private to its type" },
        // re-entered: a mutex is re-entrant for its owner thread, a semaphore deadlocks (here through a helper)
        { "private readonly Mutex _m = new(); public int Outer() { _m.WaitOne(); try { return Helper(); } finally { _m.ReleaseMutex(); } } private int Helper() => Inner(); private int Inner() { _m.WaitOne(); try { return 1; } finally { _m.ReleaseMutex(); } }", "is taken again through Helper inside it at Parts.cs:1 (which calls Inner)" },
        // used as a WaitHandle
        { "private readonly Mutex _m = new(); public bool Both(Mutex other) => WaitHandle.WaitAll(new WaitHandle[] { _m, other });", "as { _m, other }" },
        { "private readonly Mutex _m = new(); public IntPtr Raw() => _m.Handle;", "as _m.Handle" },
        // a release that does not pair a wait: outside the finally, in another method, whether or not the wait got it
        { "private readonly Mutex _m = new(); public void Work() { _m.WaitOne(); Console.WriteLine(); _m.ReleaseMutex(); }", "not in a form tplab rewrites" },
        { "private readonly Mutex _m = new(); public void Enter() => _m.WaitOne(); public void Exit() => _m.ReleaseMutex();", "not in a form tplab rewrites" },
        { "private readonly Mutex _m = new(); public void Try() { _m.WaitOne(100); try { } finally { _m.ReleaseMutex(); } }", "as _m.WaitOne(100), not in a form" },
        { "private readonly Mutex _m = new(); public void Oops() => _m.ReleaseMutex();", "released at Parts.cs:1 outside the finally" },
    };

    [Theory]
    [MemberData(nameof(Refused))]
    public async Task MutexASemaphoreCannotStandFor_Refused_NamedTPFIX025(string members, string reason)
    {
        var code = $"using System; using System.Threading; public sealed class C {{ {members} public void M() {{ _m.WaitOne(); try {{ }} finally {{ _m.ReleaseMutex(); }} }} }}";
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(code, "_m.WaitOne(); try { } finally", WaitOne);

        Assert.Null(after);
        Assert.StartsWith(FixReasons.LockKept.Say("the Mutex cannot become a SemaphoreSlim(1, 1): "), refusal, StringComparison.Ordinal);
        Assert.True(refusal!.Contains(reason, StringComparison.Ordinal), refusal);
    }

    [Fact]
    public async Task SleepInsideANamedMutexRegion_CallerKeepsWaitingAsABoundaryTPFIX001_SayingWhyTheMutexStays()
    {
        var (propagation, site, _, _) = await FixChecksTests.PlanAsync(Store.Replace("new();", "new(false, \"Global\\\\licenses\");", StringComparison.Ordinal),
            n => n is Microsoft.CodeAnalysis.CSharp.Syntax.InvocationExpressionSyntax { Expression: Microsoft.CodeAnalysis.CSharp.Syntax.MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Sleep" } });

        Assert.Null(await propagation.RequireAwaitAsync(site));

        var boundary = Assert.Single(propagation.Boundaries);
        Assert.Equal("LicenseStore.Read", boundary.Method);
        Assert.StartsWith("TPFIX001 thread-affine: it is between Mutex.WaitOne", boundary.Reason, StringComparison.Ordinal);
        Assert.Contains("The Mutex cannot become a SemaphoreSlim(1, 1): the mutex LicenseStore._file is named", boundary.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LockReenteredThroughAHelper_Refused_ByTheSameWalk()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(
            "public sealed class C { private readonly object _g = new(); public int A() { lock (_g) { return Helper(); } } private int Helper() => B(); private int B() { lock (_g) { return 1; } } }",
            "lock", new BlockingCall(BlockingKind.Lock, "lock (Monitor.Enter)", new StackFrame("System.Private.CoreLib", "System.Threading.Monitor", "Enter")));

        Assert.Null(after);
        Assert.True(refusal!.Contains("the lock on C._g is taken again through Helper inside it at Parts.cs:1 (which calls B): a SemaphoreSlim is not re-entrant", StringComparison.Ordinal), refusal);
    }

    private static async Task<string> StorePathAsync(object store, string path)
    {
        switch (path)
        {
            case "uncontended":
                return $"{await CallAsync(store, "Read", 0, false)} {await CallAsync(store, "TryRead", 50)} {await CallAsync(store, "TryReadFor", 50)}";
            case "contended":
                var answers = await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(() => CallAsync(store, "Read", 20, false))));
                var expected = Enumerable.Range(1, 8).Select(i => "licenses " + i);
                return $"{(answers.Select(a => (string)a!).Order(StringComparer.Ordinal).SequenceEqual(expected.Order(StringComparer.Ordinal)) ? "licenses 1..8" : string.Join(",", answers))}, most inside at once {Call(store, "Most")}";
            case "timed-out":
                using (var until = new ManualResetEventSlim(false))
                {
                    var holder = Task.Run(() => CallAsync(store, "Keep", until));
                    for (var i = 0; i < 2000 && (int)Call(store, "Inside")! == 0; i++)
                    {
                        await Task.Delay(5);
                    }
                    // Another thread than the holder's (a mutex is re-entrant for its owner): the pool's, while it holds.
                    var timedOut = await Task.Run(async () => $"{await CallAsync(store, "TryRead", 20)} {await CallAsync(store, "TryReadFor", 20)}");
                    until.Set();
                    // Not entered: the read after the holder is the first one counted.
                    return $"{timedOut} {await holder} {await Task.Run(() => CallAsync(store, "TryRead", 30_000))} {await CallAsync(store, "Read", 0, false)}";
                }
            case "bad-timeout":
                return $"{await Caught(() => CallAsync(store, "TryRead", -2))} {await Caught(() => CallAsync(store, "TryReadFor", -2))}";
            case "throws":
                var thrown = await Caught(() => Task.Run(() => CallAsync(store, "Read", 0, true)));
                return $"{thrown} {await Task.Run(() => CallAsync(store, "TryRead", 30_000))} {await Task.Run(() => CallAsync(store, "Read", 0, false))}";
            default:
                Call(store, "Dispose");
                return $"{await Caught(() => CallAsync(store, "Read", 0, false))} {await Caught(() => CallAsync(store, "TryRead", 10))}";
        }
    }

    // The exception's type name, or the answer when none was thrown.
    private static async Task<string> Caught(Func<Task<object?>> call)
    {
        try
        {
            return $"{await call()}";
        }
        catch (Exception e)
        {
            return e.GetType().Name;
        }
    }
}
