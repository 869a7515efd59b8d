using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Checks;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Rewrites;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// The exception-shape check proven by running the code: a quote service whose caller falls back on a timeout the way
/// teams write it (<c>catch (AggregateException ae) when (ae.InnerException is TimeoutException)</c>), compiled in
/// memory before and after the fix and called in-process on the success, the timeout and another failure. The kept
/// rewrite answers as the original did; the plain <c>await</c> the check replaces would have thrown instead.
/// </summary>
[ParallelSafe]
public sealed class FixChecksRunTests
{
    internal const string Quotes = """
        using System;
        using System.Threading.Tasks;
        public sealed class Quotes
        {
            public string Get(Task<string> price)
            {
                try
                {
                    return "quote " + Read(price);
                }
                catch (AggregateException ae) when (ae.InnerException is TimeoutException)
                {
                    return "fallback";
                }
            }
            private static string Read(Task<string> price) => price.Result.Trim();
        }
        """;

    internal static readonly BlockingCall ResultCall = new(BlockingKind.SyncOverAsync, "Task.Result", new StackFrame("System.Private.CoreLib", "System.Threading.Tasks.Task`1", "get_Result"));

    private static async Task<Func<Task<string>, Task<string>>> CompileAsync(bool keepShape)
    {
        var changes = new ChangeSet();
        var (propagation, site, model, solution) = await FixChecksTests.PlanAsync(Quotes, FixChecksTests.ResultRead, changes: changes);
        Assert.Null(await propagation.RequireAwaitAsync(site));
        var observer = ExceptionShape.FirstObserver(propagation.Points, propagation.Where);
        var edit = keepShape ? ExceptionShape.KeepAggregate(site, configureAwait: false, observer!)! : SiteRewrites.Rewrite(model, site, ResultCall, configureAwait: false).Edit!;
        changes.Replace(site, edit.Replace);
        var fixedSolution = await changes.ApplyAsync(solution, CancellationToken.None);
        var type = Load(await fixedSolution.Projects.Single().GetCompilationAsync(), "Quotes");
        var quotes = Activator.CreateInstance(type)!;
        var get = type.GetMethod("Get")!;
        Assert.Equal(typeof(Task<string>), get.ReturnType);
        return price => (Task<string>)get.Invoke(quotes, [price])!;
    }

    private static Func<Task<string>, string> Original()
    {
        var (solution, _, _) = FixPartsTests.Load(Quotes);
        var type = Load(solution.Projects.Single().GetCompilationAsync().GetAwaiter().GetResult(), "Quotes");
        var quotes = Activator.CreateInstance(type)!;
        var get = type.GetMethod("Get")!;
        return price =>
        {
            try
            {
                return (string)get.Invoke(quotes, [price])!;
            }
            catch (TargetInvocationException e)
            {
                throw e.InnerException!;
            }
        };
    }

    private static Type Load(Compilation? compilation, string name)
    {
        using var image = new MemoryStream();
        var emitted = compilation!.Emit(image);
        Assert.True(emitted.Success, string.Join("; ", emitted.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).Take(3)));
        image.Position = 0;
        return new AssemblyLoadContext("fix-checks", isCollectible: true).LoadFromStream(image).GetType(name)!;
    }

    private static async Task<string> OutcomeAsync(Func<Task<string>> call)
    {
        try
        {
            return await call();
        }
        catch (Exception e)
        {
            return $"{e.GetType().Name}({string.Join(",", (e as AggregateException)?.InnerExceptions.Select(i => i.GetType().Name) ?? [])})";
        }
    }

    public static TheoryData<string, string> Prices => new()
    {
        // the price came: the quote
        { "ok", "quote 12" },
        // the downstream timed out: the fallback, as the catch's filter meant
        { "timeout", "fallback" },
        // any other failure: the AggregateException reaches ASP.NET Core as it did
        { "broken", "AggregateException(InvalidOperationException)" },
    };

    private static Task<string> Price(string which) => which switch
    {
        "ok" => Task.FromResult(" 12 "),
        "timeout" => Task.FromException<string>(new TimeoutException()),
        _ => Task.FromException<string>(new InvalidOperationException()),
    };

    [Theory]
    [MemberData(nameof(Prices))]
    public async Task KeptShape_BeforeAndAfterTheFix_SameAnswerAndSameException(string price, string expected)
    {
        var before = Original();
        var after = await CompileAsync(keepShape: true);

        Assert.Equal(expected, await OutcomeAsync(() => Task.FromResult(before(Price(price)))));
        Assert.Equal(expected, await OutcomeAsync(() => after(Price(price))));
    }

    [Fact]
    public async Task PlainAwait_WithoutTheCheck_TheTimeoutNoLongerFallsBack()
    {
        var after = await CompileAsync(keepShape: false);

        Assert.Equal("TimeoutException()", await OutcomeAsync(() => after(Price("timeout"))));
    }
}
