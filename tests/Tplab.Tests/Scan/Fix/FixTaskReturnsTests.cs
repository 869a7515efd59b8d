using Tplab.Blocking;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Fix's own output as a reviewer reads it: a method that returned a task without being async (a conventional
/// middleware's <c>InvokeAsync</c>, an <c>IHealthCheck</c>) and now awaits returns what it meant. A completed task
/// is returned as its value (<c>return Task.CompletedTask;</c> → <c>return;</c>, left out at the end of the body;
/// <c>return Task.FromResult(x);</c> → <c>return x;</c>), and <c>return next(context);</c> in a block becomes
/// <c>await next(context);</c> and <c>return;</c> on their own lines, not <c>{ await …; return; }</c>. Run through
/// the path <c>Fixer</c> takes (<see cref="SiteRewriteTests.RewriteAsync"/>, which compiles the result); the
/// behaviour on a running app is FixDifferentialTests' (ScanCases' warm-up gate middleware).
/// </summary>
[ParallelSafe]
public sealed class FixTaskReturnsTests
{
    private const string Code = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;
        namespace App
        {
            public sealed class Gate
            {
                public bool Ready() { Thread.Sleep(10); return true; }
            }
            public sealed class GateMiddleware(Func<int, Task> next, Gate gate)
            {
                public Task InvokeAsync(int context)
                {
                    if (!gate.Ready())
                    {
                        Console.WriteLine("closed");
                        return Task.CompletedTask;
                    }
                    if (context > 9) return next(9);
                    if (context > 1)
                    {
                        return next(context + 1);
                    }
                    switch (context)
                    {
                        case 0:
                            return Task.CompletedTask;
                        case 1:
                            return next(0);
                    }
                    return next(context);
                }

                public Task Warm()
                {
                    gate.Ready();
                    return Task.CompletedTask;
                }

                public Task<string> Name(int id)
                {
                    if (id < 0)
                    {
                        return Task.FromResult<string>("none");
                    }
                    var open = gate.Ready();
                    return Task.FromResult(open ? "open" : "closed");
                }
            }
        }
        """;

    private static readonly BlockingCall Sleep = new(BlockingKind.Sleep, "Thread.Sleep", new StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Sleep"));

    [Fact]
    public async Task MethodsThatReturnedATask_ReturnWhatTheyMeant_NoAwaitedCompletedTaskAsync()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Code, "Sleep", Sleep);

        Assert.Null(refusal);
        var text = after!.ReplaceLineEndings("\n");
        Assert.DoesNotContain("CompletedTask", text, StringComparison.Ordinal);
        Assert.DoesNotContain("FromResult", text, StringComparison.Ordinal);
        Assert.Contains("""
                public async Task InvokeAsync(int context)
                {
                    if (!await gate.Ready())
                    {
                        Console.WriteLine("closed");
                        return;
                    }
                    if (context > 9) { await next(9); return; }
                    if (context > 1)
                    {
                        await next(context + 1);
                        return;
                    }
                    switch (context)
                    {
                        case 0:
                            return;
                        case 1:
                            await next(0);
                            return;
                    }
                    await next(context);
                }
        """.ReplaceLineEndings("\n"), text, StringComparison.Ordinal);
        Assert.Contains("""
                public async Task Warm()
                {
                    await gate.Ready();
                }
        """.ReplaceLineEndings("\n"), text, StringComparison.Ordinal);
        Assert.Contains("""
                        return "none";
                    }
                    var open = await gate.Ready();
                    return open ? "open" : "closed";
        """.ReplaceLineEndings("\n"), text, StringComparison.Ordinal);
    }
}
