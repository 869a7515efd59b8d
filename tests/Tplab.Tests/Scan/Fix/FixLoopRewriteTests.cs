using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Fix.Rewrites;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// A parallel loop → its awaited async twin, and a ContinueWith continuation made async, on snippets compiled in
/// memory: the rewritten text, the forms refused with their reason, and the result compiling.
/// </summary>
public sealed class FixLoopRewriteTests
{
    private static async Task<string> ApplyAsync(FixContext context, Solution solution)
    {
        var applied = await context.Changes.ApplyAsync(solution, CancellationToken.None);
        var document = applied.Projects.Single().Documents.Single();
        var errors = (await document.Project.GetCompilationAsync())!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        var text = (await document.GetTextAsync()).ToString();
        Assert.True(errors.Count == 0, "the rewrite does not compile: " + string.Join("; ", errors.Take(3)) + "\n" + text);
        return text;
    }

    private static async Task<(SiteEdit? Edit, string? Refusal)> RewriteAsync(FixContext context, SyntaxTree tree, int which)
    {
        var model = await context.ModelAsync(tree);
        var loops = tree.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>()
            .Where(i => i.Expression is MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "Parallel" } }).ToList();
        return ParallelLoops.Rewrite(model, loops[which], configureAwait: false);
    }

    [Fact]
    public async Task ParallelForEach_BlockAndExpressionBodies_BecomeAwaitedForEachAsyncThatCompiles()
    {
        var (solution, context, tree) = FixPartsTests.Load("""
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;
            public static class Totals
            {
                public static async Task Sum(int[] items, List<int> seen)
                {
                    var ct = 1;
                    Parallel.ForEach(items, item =>
                    {
                        if (item < 0)
                        {
                            return;
                        }
                        Interlocked.Add(ref ct, item);
                    });
                    Parallel.For(0, items.Length, i => Interlocked.Increment(ref ct));
                    await Task.Yield();
                }
            }
            """);
        foreach (var which in new[] { 0, 1 })
        {
            var (edit, refusal) = await RewriteAsync(context, tree, which);
            Assert.Null(refusal);
            context.Changes.Replace(edit!.Node, edit.Replace);
        }

        var text = await ApplyAsync(context, solution);

        Assert.Contains("await Parallel.ForEachAsync(items, (item, cancellationToken) =>", text, StringComparison.Ordinal);
        Assert.Contains("return ValueTask.CompletedTask;\n            }", text, StringComparison.Ordinal);
        Assert.Contains("Interlocked.Add(ref ct, item);\n            return ValueTask.CompletedTask;\n        });", text, StringComparison.Ordinal);
        Assert.Contains("await Parallel.ForAsync(0, items.Length, (i, cancellationToken) => { Interlocked.Increment(ref ct); return ValueTask.CompletedTask; });", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ParallelForEach_LoopStateResultUsedOrAggregateCaught_RefusedWithTheReason()
    {
        var (_, context, tree) = FixPartsTests.Load("""
            using System;
            using System.Threading.Tasks;
            public static class Loops
            {
                public static bool M(int[] items)
                {
                    Parallel.ForEach(items, (item, state) => { if (item < 0) state.Stop(); });
                    var result = Parallel.ForEach(items, item => { });
                    try
                    {
                        Parallel.ForEach(items, item => { });
                    }
                    catch (AggregateException)
                    {
                    }
                    Parallel.Invoke(() => { });
                    return result.IsCompleted;
                }
            }
            """);

        Assert.Contains("ParallelLoopState", (await RewriteAsync(context, tree, 0)).Refusal, StringComparison.Ordinal);
        Assert.Contains("ParallelLoopResult", (await RewriteAsync(context, tree, 1)).Refusal, StringComparison.Ordinal);
        Assert.Contains("catch (AggregateException)", (await RewriteAsync(context, tree, 2)).Refusal, StringComparison.Ordinal);
        Assert.Contains("Task.WhenAll", (await RewriteAsync(context, tree, 3)).Refusal, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ContinueWith_ContinuationMustAwait_BecomesAsyncAndUnwrappedSameType()
    {
        var (solution, context, tree) = FixPartsTests.Load("""
            using System.Threading.Tasks;
            public static class Report
            {
                public static Task<int> Build(Task<int> count) =>
                    count.ContinueWith(counted =>
                    {
                        Task.Delay(1).Wait();
                        return counted.Result;
                    }, TaskScheduler.Default);
            }
            """);
        var model = await context.ModelAsync(tree);
        var lambda = tree.GetRoot().DescendantNodes().OfType<SimpleLambdaExpressionSyntax>().Single();
        var reshaped = new List<string>();
        var wait = FixPartsTests.Node<InvocationExpressionSyntax>(tree, i => i.Expression is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Wait" });

        Assert.Null(await new AsyncLambda(context, reshaped).DecideAsync(model, lambda));
        context.Changes.Replace(wait, n => AsyncSyntax.Await(((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)n).Expression).Expression, wait, configureAwait: false));
        var text = await ApplyAsync(context, solution);

        Assert.Contains("count.ContinueWith(async counted =>", text, StringComparison.Ordinal);
        Assert.Contains("await Task.Delay(1);", text, StringComparison.Ordinal);
        Assert.Contains("}, TaskScheduler.Default).Unwrap();", text, StringComparison.Ordinal);
        Assert.Contains("ContinueWith(async x => …).Unwrap()", Assert.Single(reshaped), StringComparison.Ordinal);
    }
}
