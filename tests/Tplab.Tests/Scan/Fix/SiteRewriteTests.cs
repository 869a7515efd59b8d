using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Fix.Rewrites;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Each <see cref="ISiteRewrite"/> on a snippet compiled in memory, the way <c>Fixer</c> runs it: located at the
/// call's position, edited, async carried up, applied and compiled again. One test per rewrite class; a catalogue form
/// with no class fails <see cref="EveryCatalogueForm_HasOneRewriteClass"/>.
/// </summary>
[ParallelSafe]
public sealed class SiteRewriteTests
{
    private static readonly StackFrame Result = new("System.Private.CoreLib", "System.Threading.Tasks.Task`1", "get_Result");

    /// <summary>The snippet after the rewrite of the call at <paramref name="marker"/>'s position, or the refusal.</summary>
    internal static async Task<(string? After, string? Refusal)> RewriteAsync(string code, string marker, BlockingCall call)
    {
        var (solution, context, tree) = FixPartsTests.Load(code);
        var model = await context.ModelAsync(tree);
        var rewrite = SiteRewrites.For(call);
        if (rewrite.RefusalUpfront(BlockingCallCatalogue.RewriteFor(call)) is { } upfront)
        {
            return (null, upfront);
        }
        var node = rewrite.Locate(model, await tree.GetRootAsync(), code.IndexOf(marker, StringComparison.Ordinal), call);
        Assert.NotNull(node);
        var changes = new ChangeSet();
        var (edit, refusal) = SiteRewrites.Rewrite(model, node, call, configureAwait: false);
        if (refusal is not null)
        {
            return (null, refusal);
        }
        var naming = new FixNaming(RenameMode.Keep, suffixConvention: false, new HashSet<string>(), "/parts");
        var propagation = new AsyncPropagation(solution, changes, naming, 200, CancellationToken.None);
        if (await rewrite.PropagateAsync(propagation, node, call) is { } why)
        {
            return (null, why);
        }
        if (edit is not null)
        {
            changes.Replace(node, edit.Replace);
            foreach (var ns in edit.Usings)
            {
                changes.Using(node.SyntaxTree, ns);
            }
        }
        var after = await changes.ApplyAsync(solution, CancellationToken.None);
        var errors = (await after.Projects.Single().GetCompilationAsync())!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, "the rewrite does not compile: " + string.Join("; ", errors.Take(3)));
        return ((await after.Projects.Single().Documents.Single().GetTextAsync()).ToString(), null);
    }

    /// <summary>The text with every run of white space one space, so an assertion reads the code, not its layout.</summary>
    internal static string Squash(string? text) => System.Text.RegularExpressions.Regex.Replace(text ?? "", @"\s+", " ");

    [Fact]
    public void EveryCatalogueForm_HasOneRewriteClass()
    {
        var missing = Enum.GetValues<AsyncRewriteKind>().Where(k => SiteRewrites.ForKind(k) is null).ToList();
        var rows = BlockingCallCatalogue.Entries.Select(e => e.Rewrite.Kind)
            .Concat(Enum.GetValues<BlockingKind>().Select(k => AsyncRewrite.For(k).Kind)).Distinct().Where(k => SiteRewrites.ForKind(k) is null).ToList();

        Assert.True(missing.Count == 0 && rows.Count == 0, "catalogue forms without an ISiteRewrite class in src/Tplab.Scan/Fix/Rewrites: " + string.Join(", ", missing.Concat(rows).Distinct()));
        Assert.All(Enum.GetValues<AsyncRewriteKind>(), k => Assert.Equal(k, SiteRewrites.ForKind(k)!.Kind));
    }

    [Fact]
    public async Task AwaitTask_ResultRead_BecomesAwait()
    {
        var (after, refusal) = await RewriteAsync("""
            using System.Threading.Tasks;
            public static class Prices
            {
                public static int Get(Task<int> price) => price.Result + 1;
            }
            """, "Result", new BlockingCall(BlockingKind.SyncOverAsync, "Task.Result", Result));

        Assert.Null(refusal);
        Assert.Contains("async Task<int> Get(Task<int> price) => await price + 1;", Squash(after));
    }

    [Fact]
    public async Task WhenAll_WaitAll_BecomesAwaitedWhenAll()
    {
        var (after, refusal) = await RewriteAsync("""
            using System.Threading.Tasks;
            public static class Batch
            {
                public static void Run(Task a, Task b) { Task.WaitAll(a, b); }
            }
            """, "WaitAll", new BlockingCall(BlockingKind.SyncOverAsync, "Task.WaitAll", new StackFrame("System.Private.CoreLib", "System.Threading.Tasks.Task", "WaitAll")));

        Assert.Null(refusal);
        Assert.Contains("async Task Run(Task a, Task b) { await Task.WhenAll(a, b); }", Squash(after));
    }

    [Fact]
    public async Task WhenAny_WaitAnyIndexUnused_BecomesAwaitedWhenAny_IndexUsedRefused()
    {
        var call = new BlockingCall(BlockingKind.SyncOverAsync, "Task.WaitAny", new StackFrame("System.Private.CoreLib", "System.Threading.Tasks.Task", "WaitAny"));
        var (after, _) = await RewriteAsync("""
            using System.Threading.Tasks;
            public static class First
            {
                public static void Run(Task a, Task b) { Task.WaitAny(a, b); }
            }
            """, "WaitAny", call);
        var (_, refusal) = await RewriteAsync("""
            using System.Threading.Tasks;
            public static class First
            {
                public static int Run(Task a, Task b) { return Task.WaitAny(a, b); }
            }
            """, "WaitAny", call);

        Assert.Contains("await Task.WhenAny(a, b);", after);
        Assert.Contains("index is used", refusal);
    }

    [Fact]
    public async Task Delay_ThreadSleep_BecomesAwaitedDelay()
    {
        var (after, refusal) = await RewriteAsync("""
            using System.Threading;
            public static class Backoff
            {
                public static void Pause() { Thread.Sleep(200); }
            }
            """, "Sleep", new BlockingCall(BlockingKind.Sleep, "Thread.Sleep", new StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Sleep")));

        Assert.Null(refusal);
        Assert.Contains("Task.Delay(200);", after);
        Assert.Contains(" async ", Squash(after));
        Assert.DoesNotContain("Thread.Sleep", after);
    }

    [Fact]
    public async Task Sibling_ReadToEnd_BecomesAwaitedReadToEndAsync()
    {
        var (after, refusal) = await RewriteAsync("""
            using System.IO;
            public static class Body
            {
                public static string Read(StreamReader reader) => reader.ReadToEnd();
            }
            """, "ReadToEnd", new BlockingCall(BlockingKind.SyncStreamIO, "StreamReader.ReadToEnd", new StackFrame("System.Private.CoreLib", "System.IO.StreamReader", "ReadToEnd")));

        Assert.Null(refusal);
        Assert.Contains("=> await reader.ReadToEndAsync();", after);
    }

    [Fact]
    public async Task Semaphore_PrivateLock_BecomesAwaitedSemaphore()
    {
        var (after, refusal) = await RewriteAsync("""
            public sealed class Counter
            {
                private readonly object _gate = new();
                private int _n;
                public int Next()
                {
                    lock (_gate)
                    {
                        return ++_n;
                    }
                }
            }
            """, "lock", new BlockingCall(BlockingKind.Lock, "lock (Monitor.Enter)", new StackFrame("System.Private.CoreLib", "System.Threading.Monitor", "Enter")));

        Assert.Null(refusal);
        Assert.Contains("await _gate.WaitAsync();", after);
        Assert.Contains("_gate.Release();", after);
        Assert.Contains("SemaphoreSlim _gate = new(1, 1)", after);
    }

    [Fact]
    public async Task ParallelAsync_ForEach_BecomesAwaitedForEachAsync()
    {
        var (after, refusal) = await RewriteAsync("""
            using System.Collections.Generic;
            using System.Threading.Tasks;
            public static class Fan
            {
                public static void All(List<int> items) { Parallel.ForEach(items, item => Use(item)); }
                private static void Use(int item) { }
            }
            """, "ForEach", new BlockingCall(BlockingKind.Parallel, "Parallel.ForEach", new StackFrame("System.Threading.Tasks.Parallel", "System.Threading.Tasks.Parallel", "ForEach")));

        Assert.Null(refusal);
        Assert.Contains("await Parallel.ForEachAsync(items, (item, cancellationToken)", after);
    }

    [Fact]
    public async Task None_NoAsyncForm_RefusedWithTheRowsAdvice()
    {
        var call = new BlockingCall(BlockingKind.SyncWait, "Thread.Join", new StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Join"));
        var (after, refusal) = await RewriteAsync("""
            using System.Threading;
            public static class Gate
            {
                public static void Pass(Thread worker) { worker.Join(); }
            }
            """, "Join", call);

        Assert.Null(after);
        Assert.Equal(FixReasons.NoAsyncForm.Say(BlockingCallCatalogue.RewriteFor(call).Advice!), refusal);
        Assert.False(string.IsNullOrEmpty(refusal));
    }
}
