using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Checks;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// The behaviour checks a rewrite must pass (docs/fix.md, "Behaviour checks"), each on a snippet compiled in memory and
/// written as application code is: the refusal or the boundary names the check's id; the shapes a check handles keep
/// the exception the code threw (<see cref="FixChecksRunTests"/> runs them).
/// </summary>
[ParallelSafe]
public sealed class FixChecksTests
{
    internal static async Task<(AsyncPropagation Propagation, SyntaxNode Site, SemanticModel Model, Solution Solution)> PlanAsync(string code, Func<SyntaxNode, bool> site, bool addCancellation = false, ChangeSet? changes = null)
    {
        var (solution, context, tree) = FixPartsTests.Load(code);
        var model = await context.ModelAsync(tree);
        var node = tree.GetRoot().DescendantNodes().First(site);
        var naming = new FixNaming(RenameMode.Keep, suffixConvention: false, new HashSet<string>(), "/parts");
        return (new AsyncPropagation(solution, changes ?? new ChangeSet(), naming, 200, CancellationToken.None, addCancellation), node, model, solution);
    }

    internal static bool ResultRead(SyntaxNode n) => n is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Result" };

    [Fact]
    public async Task ThreadAffine_WaitBetweenMonitorEnterAndExit_RefusedTPFIX001()
    {
        var (propagation, site, _, _) = await PlanAsync("""
            using System.Threading;
            using System.Threading.Tasks;
            public sealed class PriceCache
            {
                private readonly object _gate = new();
                private int _last;
                public int Refresh(Task<int> load)
                {
                    Monitor.Enter(_gate);
                    try
                    {
                        _last = load.Result;
                        return _last;
                    }
                    finally
                    {
                        Monitor.Exit(_gate);
                    }
                }
            }
            """, ResultRead);

        var why = await propagation.RequireAwaitAsync(site);

        Assert.StartsWith("TPFIX001 thread-affine: it is between Monitor.Enter (line 9) and Monitor.Exit (line 17)", why, StringComparison.Ordinal);
        Assert.Equal("TPFIX001", FixReasons.IdIn(why));
    }

    [Fact]
    public async Task ThreadAffine_CallerInsideWriteLock_CallerKeepsWaitingAsABoundaryTPFIX001()
    {
        var (propagation, site, _, _) = await PlanAsync("""
            using System.Threading;
            using System.Threading.Tasks;
            public sealed class Inventory
            {
                private readonly ReaderWriterLockSlim _rw = new();
                public int Reserve(Task<int> stock)
                {
                    _rw.EnterWriteLock();
                    try
                    {
                        return Count(stock);
                    }
                    finally
                    {
                        _rw.ExitWriteLock();
                    }
                }
                private static int Count(Task<int> stock) => stock.Result;
            }
            """, ResultRead);

        Assert.Null(await propagation.RequireAwaitAsync(site));

        var boundary = Assert.Single(propagation.Boundaries);
        Assert.Equal("Inventory.Reserve", boundary.Method);
        Assert.StartsWith("TPFIX001 thread-affine: it is between ReaderWriterLockSlim.EnterWriteLock (line 8) and ReaderWriterLockSlim.ExitWriteLock (line 15)", boundary.Reason, StringComparison.Ordinal);
    }

    [Theory]
    // a named mutex a request takes (a private, unnamed one becomes a SemaphoreSlim: FixMutexTests), and a spin lock taken by hand
    [InlineData("private readonly Mutex _m = new(false, \"Global\\\\prices\"); public int M(Task<int> t) { _m.WaitOne(); try { return t.Result; } finally { _m.ReleaseMutex(); } }", "Mutex.WaitOne")]
    [InlineData("private SpinLock _s = new(false); public int M(Task<int> t) { var taken = false; _s.Enter(ref taken); try { return t.Result; } finally { _s.Exit(); } }", "SpinLock.Enter")]
    [InlineData("private readonly object _g = new(); public int M(Task<int> t) { if (!Monitor.TryEnter(_g, 100)) { return 0; } try { return t.Result; } finally { Monitor.Exit(_g); } }", "Monitor.TryEnter")]
    public async Task ThreadAffine_OtherOwnedPrimitives_RefusedTPFIX001(string member, string acquire)
    {
        var (propagation, site, _, _) = await PlanAsync($"using System.Threading; using System.Threading.Tasks; public sealed class C {{ {member} }}", ResultRead);

        Assert.Contains($"TPFIX001 thread-affine: it is between {acquire}", await propagation.RequireAwaitAsync(site), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ThreadAffine_WaitAfterTheRegion_Allowed()
    {
        var (propagation, site, _, _) = await PlanAsync("""
            using System.Threading;
            using System.Threading.Tasks;
            public sealed class C
            {
                private readonly object _g = new();
                private int _n;
                public int M(Task<int> t)
                {
                    Monitor.Enter(_g);
                    try { _n++; } finally { Monitor.Exit(_g); }
                    return t.Result + _n;
                }
            }
            """, ResultRead);

        Assert.Null(await propagation.RequireAwaitAsync(site));
    }

    [Fact]
    public async Task ThreadIdentity_ThreadStaticReadAfterTheWait_RefusedTPFIX003()
    {
        var (propagation, site, _, _) = await PlanAsync("""
            using System;
            using System.Threading.Tasks;
            public static class AuditTrail
            {
                [ThreadStatic]
                private static string? _user;
                public static string Record(string user, Task<int> save)
                {
                    _user = user;
                    var id = save.Result;
                    return _user + ":" + id;
                }
            }
            """, ResultRead);

        Assert.StartsWith("TPFIX003 thread-identity: the [ThreadStatic] field _user is read after it (line 11)", await propagation.RequireAwaitAsync(site), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("var owner = Environment.CurrentManagedThreadId; var n = t.Result; return owner == Environment.CurrentManagedThreadId ? n : -1;", "Environment.CurrentManagedThreadId")]
    [InlineData("var n = 0; for (var i = 0; i < 2; i++) { var id = Thread.CurrentThread.ManagedThreadId; n += t.Result + id; } return n;", "Thread.CurrentThread")]
    [InlineData("var n = t.Result; return n + Local.Value;", "a ThreadLocal<T>'s Value")]
    public async Task ThreadIdentity_ThreadBoundReads_RefusedTPFIX003(string body, string what)
    {
        var (propagation, site, _, _) = await PlanAsync($"using System; using System.Threading; using System.Threading.Tasks; public static class C {{ private static readonly ThreadLocal<int> Local = new(() => 1); public static int M(Task<int> t) {{ {body} }} }}", ResultRead);

        Assert.Contains($"TPFIX003 thread-identity: {what}", await propagation.RequireAwaitAsync(site), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ThreadIdentity_CultureSetInAMethodMadeAsync_RefusedTPFIX003()
    {
        var (propagation, site, _, _) = await PlanAsync("""
            using System.Globalization;
            using System.Threading.Tasks;
            public static class Localizer
            {
                public static string Use(string culture, Task<string> greeting)
                {
                    CultureInfo.CurrentCulture = new CultureInfo(culture);
                    return greeting.Result;
                }
            }
            """, ResultRead);

        Assert.StartsWith("TPFIX003 thread-identity: it sets CultureInfo.CurrentCulture (line 7)", await propagation.RequireAwaitAsync(site), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExceptionShape_AggregateCaughtByACallerUpTheChain_KeptByAwaitingAContinuation()
    {
        var (propagation, site, model, _) = await PlanAsync(FixChecksRunTests.Quotes, ResultRead);
        Assert.Null(await propagation.RequireAwaitAsync(site));

        var observer = ExceptionShape.FirstObserver(propagation.Points, propagation.Where);

        Assert.Equal("catch (AggregateException ae) when (…) at Parts.cs:11", observer);
        Assert.True(ExceptionShape.Changes(model, site, FixChecksRunTests.ResultCall, CancellationToken.None));
        var kept = ExceptionShape.KeepAggregate(site, configureAwait: false, observer!);
        Assert.Contains("TPFIX002 exception-shape", kept!.Description, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExceptionShape_WaitAllInsideAggregateCatch_RefusedTPFIX002()
    {
        var (propagation, site, model, _) = await PlanAsync("""
            using System;
            using System.Threading.Tasks;
            public static class Warmup
            {
                public static int Run(Task a, Task b)
                {
                    try
                    {
                        Task.WaitAll(a, b);
                        return 0;
                    }
                    catch (AggregateException ae)
                    {
                        return ae.InnerExceptions.Count;
                    }
                }
            }
            """, n => n is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "WaitAll" } });
        Assert.Null(await propagation.RequireAwaitAsync(site));
        var call = new Tplab.Blocking.BlockingCall(Tplab.Blocking.BlockingKind.SyncOverAsync, "Task.WaitAll", new Tplab.Blocking.StackFrame("System.Private.CoreLib", "System.Threading.Tasks.Task", "WaitAll"));

        var observer = ExceptionShape.FirstObserver(propagation.Points, propagation.Where);

        Assert.True(ExceptionShape.Changes(model, site, call, CancellationToken.None));
        Assert.Null(ExceptionShape.KeepAggregate(site, configureAwait: false, observer!));
        Assert.StartsWith("TPFIX002 exception-shape: catch (AggregateException ae) at Parts.cs:12 reads the AggregateException Task.WaitAll throws", ExceptionShape.Refusal(call, observer!), StringComparison.Ordinal);
    }

    [Theory]
    // what keeps its meaning: nothing read, a plain rethrow, a logger given the exception
    [InlineData("catch { return 0; }", false)]
    [InlineData("catch (Exception) { return 0; }", false)]
    [InlineData("catch (Exception ex) { Console.Error.WriteLine(ex); throw; }", false)]
    // what would change: the inner exception's own type starts matching, a filter, the message
    [InlineData("catch (TimeoutException) { return 0; }", true)]
    [InlineData("catch (Exception ex) when (ex is AggregateException) { return 0; }", true)]
    [InlineData("catch (Exception ex) { return ex.Message.Length; }", true)]
    public async Task ExceptionShape_WhichCatchesReadTheShape(string handler, bool reads)
    {
        var (propagation, site, _, _) = await PlanAsync($"using System; using System.Threading.Tasks; public static class C {{ public static int M(Task<int> t) {{ try {{ return t.Result; }} {handler} }} }}", ResultRead);
        Assert.Null(await propagation.RequireAwaitAsync(site));

        Assert.Equal(reads, ExceptionShape.FirstObserver(propagation.Points, propagation.Where) is not null);
    }

    [Fact]
    public async Task Cancellation_NoFlag_NoTokenGivenToACallThatHadNone()
    {
        var (propagation, site, model, _) = await PlanAsync("""
            using System.Threading;
            public static class Pacer
            {
                public static int Wait(int ms, CancellationToken ct)
                {
                    Thread.Sleep(ms);
                    return ms;
                }
            }
            """, n => n is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Sleep" } });

        Assert.Null(propagation.Token(model, site));
    }

    [Fact]
    public async Task Cancellation_WithTheFlag_TheNoteSaysWhatACancelledRequestSkips()
    {
        var (propagation, site, model, _) = await PlanAsync("""
            using System.Threading;
            public static class Pacer
            {
                public static int Wait(int ms, CancellationToken ct)
                {
                    Thread.Sleep(ms);
                    Audit(ms);
                    return ms;
                }
                private static void Audit(int ms) { }
            }
            """, n => n is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Sleep" } }, addCancellation: true);

        Assert.Equal("ct", propagation.Token(model, site));
        Assert.Equal("TPFIX004 cancellation: await Task.Delay now takes ct: when the request is cancelled it throws OperationCanceledException there, skipping the rest of Wait (lines 7-8) and its callers' code after it",
            CancellationNote.Say(site, "ct", "await Task.Delay"));
    }

    [Fact]
    public void RefusalIds_EachCheckDocumentedInFixMdWithItsName_AndNoOther()
    {
        var doc = File.ReadAllText(Path.Combine(RepoPaths.Root, "docs", "fix.md"));
        var documented = System.Text.RegularExpressions.Regex.Matches(doc, "TPFIX[0-9]{3}").Select(m => m.Value).Distinct().Order(StringComparer.Ordinal).ToList();

        Assert.Equal(FixReasons.All.Select(c => c.Id).Order(StringComparer.Ordinal), documented);
        Assert.All(FixReasons.All, c => Assert.Contains($"| `{c.Id}` | {c.Name} |", doc, StringComparison.Ordinal));
    }

    [Fact]
    public void RefusalIds_OneTable_EveryReasonOnceWithItsOwnIdAndName()
    {
        var declared = typeof(FixReasons).GetFields(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static)
            .Where(f => f.FieldType == typeof(FixReason)).Select(f => (FixReason)f.GetValue(null)!).ToList();

        Assert.Equal(declared.Select(r => r.Id).Order(StringComparer.Ordinal), FixReasons.All.Select(r => r.Id).Order(StringComparer.Ordinal));
        Assert.Equal(FixReasons.All.Count, FixReasons.All.Select(r => r.Id).Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(FixReasons.All.Count, FixReasons.All.Select(r => r.Name).Distinct(StringComparer.Ordinal).Count());
        Assert.All(FixReasons.All, r => Assert.Matches("^TPFIX[0-9]{3}$", r.Id));
        Assert.Equal(["TPFIX001", "TPFIX002", "TPFIX003", "TPFIX004", "TPFIX005"], FixReasons.All.Where(r => r.IsBehaviourCheck).Select(r => r.Id));
    }

    [Theory]
    [InlineData("TPFIX025 lock-kept: the lock on _gate is also taken at A.cs:4, where it cannot be awaited: TPFIX021 cannot-be-async: a constructor cannot be async", "TPFIX025")]
    [InlineData("Task.Result cannot be awaited where it is: TPFIX001 thread-affine: it is between Monitor.Enter (line 9) and Monitor.Exit (line 17)", "TPFIX001")]
    [InlineData("every path to it passes a caller that cannot be async, so the wait would only move there: A.B (A.cs:3) TPFIX024 delegate-type: …; C.D (C.cs:9) TPFIX003 thread-identity: …", "TPFIX024")]
    [InlineData("a reason naming no id", null)]
    public void RefusalIds_TheFirstIdNamedIsTheFindings(string reason, string? id) => Assert.Equal(id, FixReasons.IdIn(reason));
}
