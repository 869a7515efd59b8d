using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// A blocking call under a <c>System.Threading.Timer</c> callback, a lambda or a method group: the callback becomes
/// async (async void, as a timer callback may be), the method async with it, and the code compiles; the report says
/// what the callback became. Any other void delegate is still refused (<see cref="FixPartsTests"/>).
/// </summary>
public sealed class FixTimerCallbackTests
{
    [Fact]
    public async Task TimerCallbacks_LambdaAndMethodGroup_BecomeAsyncAndCompile()
    {
        var (solution, _, tree) = FixPartsTests.Load("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;
            public sealed class Board : IDisposable
            {
                private readonly Timer _a;
                private readonly Timer _b;
                public Board()
                {
                    _a = new Timer(_ => Refresh(), null, TimeSpan.Zero, TimeSpan.FromSeconds(1));
                    _b = new Timer(Sync, null, TimeSpan.Zero, TimeSpan.FromSeconds(1));
                }
                private void Refresh() => Task.Delay(1).Wait();
                private void Sync(object? state) => Task.Delay(2).Wait();
                public void Dispose() { _a.Dispose(); _b.Dispose(); }
            }
            """);
        var changes = new ChangeSet();
        var propagation = new AsyncPropagation(solution, changes, new FixNaming(RenameMode.Async, suffixConvention: true, new HashSet<string>(), "/parts"), 100, CancellationToken.None);

        foreach (var wait in tree.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>()
            .Where(i => i.Expression is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Wait" }).ToList())
        {
            Assert.Null(await propagation.RequireAwaitAsync(wait));
            changes.Replace(wait, n => AsyncSyntax.Await(((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)n).Expression).Expression, wait, configureAwait: false));
        }
        var applied = await changes.ApplyAsync(solution, CancellationToken.None);

        var document = applied.Projects.Single().Documents.Single();
        var text = (await document.GetTextAsync()).ToString();
        var errors = (await document.Project.GetCompilationAsync())!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, "the rewrite does not compile: " + string.Join("; ", errors.Take(3)) + "\n" + text);
        Assert.Contains("new Timer(async _ => await RefreshAsync(), null", text, StringComparison.Ordinal);
        Assert.Contains("new Timer(async state => await SyncAsync(state), null", text, StringComparison.Ordinal);
        Assert.Contains("private async Task SyncAsync(object? state) => await Task.Delay(2);", text, StringComparison.Ordinal);
        Assert.Equal(2, propagation.Reshaped.Count(r => r.Contains("timer callback", StringComparison.Ordinal) && r.Contains("async void", StringComparison.Ordinal)));
    }
}
