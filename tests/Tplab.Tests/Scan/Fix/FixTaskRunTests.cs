using Tplab.Blocking;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>await Task.Run(() =&gt; Blocking())</c> once <c>Blocking</c> is made async: the hop is unwrapped to
/// <c>await BlockingAsync()</c> in the shapes teams write (an expression or a one-statement block, through
/// <c>ConfigureAwait</c>), so scan has no Task.Run note on fix's own output; where the lambda or the method it calls
/// reads its thread the Task.Run stays (TPFIX005), its lambda returning the task the method now returns (not
/// <c>async () =&gt; await Work()</c>: Task.Run unwraps it either way).
/// </summary>
[ParallelSafe]
public sealed class FixTaskRunTests
{
    private static readonly BlockingCall Sleep = new(BlockingKind.Sleep, "Thread.Sleep", new StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Sleep"));

    [Theory]
    [InlineData("await Task.Run(() => Work())", "await Work()")]
    [InlineData("await Task.Run(() => { return Work(); })", "await Work()")]
    [InlineData("await Task.Run(() => Work()).ConfigureAwait(false)", "await Work().ConfigureAwait(false)")]
    public async Task AwaitedTaskRun_OfAMethodMadeAsync_Unwrapped(string before, string after)
    {
        var (text, refusal) = await SiteRewriteTests.RewriteAsync($$"""
            using System.Threading;
            using System.Threading.Tasks;
            public static class Jobs
            {
                public static async Task<int> Handle() => {{before}};
                private static int Work() { Thread.Sleep(10); return 1; }
            }
            """, "Sleep", Sleep);

        Assert.Null(refusal);
        Assert.Contains($"public static async Task<int> Handle() => {after};", SiteRewriteTests.Squash(text));
        Assert.DoesNotContain("Task.Run", text);
    }

    [Theory]
    // the lambda reads its thread: under Task.Run the pool thread's slot, directly the request thread's
    [InlineData("await Task.Run(() => Work(_slot))", "await Task.Run(() => Work(_slot))", "private static int Work(int s) { Thread.Sleep(10); return s; }")]
    // the method it calls reads its thread before its first await
    [InlineData("await Task.Run(() => Work())", "await Task.Run(() => Work())", "private static int Work() { var id = Environment.CurrentManagedThreadId; Thread.Sleep(10); return id; }")]
    public async Task AwaitedTaskRun_ThatReadsItsThread_KeptReturningTheTaskAsync(string before, string after, string work)
    {
        var (text, refusal) = await SiteRewriteTests.RewriteAsync($$"""
            using System;
            using System.Threading;
            using System.Threading.Tasks;
            public static class Jobs
            {
                [ThreadStatic] private static int _slot;
                public static async Task<int> Handle() => {{before}};
                {{work}}
            }
            """, "Sleep", Sleep);

        Assert.Null(refusal);
        Assert.Contains($"public static async Task<int> Handle() => {after};", SiteRewriteTests.Squash(text));
        Assert.Contains("private static async Task<int> Work(", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TaskRunWithAToken_KeptReturningTheTask_NotAnAsyncLambdaAsync()
    {
        var (text, refusal) = await SiteRewriteTests.RewriteAsync("""
            using System.Threading;
            using System.Threading.Tasks;
            public static class Jobs
            {
                public static async Task<int> Handle(CancellationToken ct) => await Task.Run(() => Work(), ct).ConfigureAwait(false);
                public static async Task<int> Block(CancellationToken ct) => await Task.Run(() => { return Work(); }, ct).ConfigureAwait(false);
                private static int Work() { Thread.Sleep(10); return 1; }
            }
            """, "Sleep", Sleep);

        Assert.Null(refusal);
        var squashed = SiteRewriteTests.Squash(text);
        Assert.Contains("Handle(CancellationToken ct) => await Task.Run(() => Work(), ct).ConfigureAwait(false);", squashed);
        Assert.Contains("Block(CancellationToken ct) => await Task.Run(() => { return Work(); }, ct).ConfigureAwait(false);", squashed);
        Assert.DoesNotContain("async ()", text, StringComparison.Ordinal);
    }
}
