using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Hosting;
using Tplab.Blocking;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;
using Tplab.Diagnose;
using static Tplab.Tests.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>
/// Attribution that reads the application's IL (this test assembly stands in for the app): which of the methods the
/// JIT inlined made the call, and whether a work item with no framework frame below it belongs to a hosted service.
/// </summary>
[ParallelSafe]
public sealed class IlAttributionTests : IDisposable
{
    private const string Here = "Tplab.Tests.Diagnose.";

    private readonly StackClassifier _classifier = new();
    private readonly ApplicationCode _code = ApplicationCode.Load([typeof(IlWarehouse).Assembly.Location], new LibraryCode());

    [Fact]
    public void Grouper_AsyncStubInlinedIntoTheMethodThatWaitsOnItsTask_NamesTheWaitingMethod()
    {
        // Recorded at Tier 1: the JIT inlined FetchLevelAsync's stub into Refresh, which then calls Wait() on its task.
        var inlines = new InlineIndex([new Inlining(Here + "IlWarehouse.Refresh", Here + "IlWarehouse.Refresh", Here + "IlWarehouse.FetchLevelAsync")], new LibraryCode());
        var frames = Of(TaskWait, One("app!" + Here + "IlWarehouse.Refresh(class System.String)"), One(RequestDelegate), One(Kestrel), PoolBottom);

        var culprit = Single(new BlockedStackGrouper(_classifier, 14, inlines, _code), frames);

        Assert.Equal(Here + "IlWarehouse.Refresh", culprit.UserFrame!.FullName);
        Assert.Equal(HopSource.Stack, culprit.Chain[^1].From);
    }

    [Fact]
    public void Grouper_TaskRunBodyStartedByABackgroundService_IsPlacedInTheHostedService()
    {
        var frames = Of(One(Sleep), One("app!" + Here + "IlDispatcher.Deliver()"), One("app!" + Here + "IlDispatcher+<>c__DisplayClass1_0.<Run>b__0()"), TaskRunBottom, PoolBottom);

        var culprit = Single(new BlockedStackGrouper(_classifier, 14, null, _code), frames);

        Assert.Equal(Here + "IlDispatcher.Deliver", culprit.UserFrame!.FullName);
        Assert.Equal(CodePlace.HostedService, culprit.Place);
    }

    [Fact]
    public void Grouper_TaskRunBodyInAnExecuteAsyncThatIsNoHostedService_StaysUnknown()
    {
        // The classifier goes by the name ExecuteAsync; the IL says this type is no hosted service.
        var frames = Of(One(Sleep), One("app!" + Here + "IlCommand+<>c.<ExecuteAsync>b__0_0()"), TaskRunBottom, PoolBottom);

        Assert.Equal(CodePlace.HostedService, _classifier.Classify(frames)!.Place);
        Assert.Equal(CodePlace.Unknown, Single(new BlockedStackGrouper(_classifier, 14, null, _code), frames).Place);
    }

    [Fact]
    public void Grouper_WaitInAMinimalApiHandlersContinuation_IsNamedFromTheWaitsActivityAndTheHandlersIl()
    {
        // Recorded at Tier 1: after its first await the handler resumes on a timer's work item (no ASP.NET Core frame
        // below), with Points and .Result inlined into its state machine. The wait event carried the request's activity.
        var request = Guid.NewGuid();
        var index = new RequestIndex(
        [
            new RequestEvent(RequestEventKind.Start, 3, 1, request, new Dictionary<string, string> { ["method"] = "GET", ["path"] = "/points/12" }),
            new RequestEvent(RequestEventKind.EndpointMatched, 3, 2, request, new Dictionary<string, string> { ["Values"] = "[id, 12]" }),
        ]);
        var handler = "app!" + Here + "IlEndpoints+<>c+<<Map>b__0_0>d.MoveNext()";
        var frames = Of(
            One("System.Private.CoreLib!System.Threading.Tasks.Task.InternalWait(int32,value class System.Threading.CancellationToken)"),
            One(handler),
            One("System.Private.CoreLib!System.Threading.ExecutionContext.RunInternal(class System.Threading.ExecutionContext,class System.Threading.ContextCallback,class System.Object)"),
            One("System.Private.CoreLib!System.Threading.Tasks.Task.RunContinuations(class System.Object)"),
            One("app!" + Here + "IlLoyalty+<BalanceAsync>d__1.MoveNext()"),
            One("System.Private.CoreLib!System.Threading.Tasks.Task+DelayPromise.CompleteTimedOut()"),
            One("System.Private.CoreLib!System.Threading.TimerQueueTimer.System.Threading.IThreadPoolWorkItem.Execute()"),
            PoolBottom);
        var wait = new ThreadObservation(7, 10, 1000, frames, ObservationSource.WaitEvent) { Activity = request };
        var grouper = new BlockedStackGrouper(_classifier, 14, null, _code);
        grouper.Add(wait, index.Find(wait.ThreadId, wait.StartMs, wait.Frames, wait.Activity));

        var culprit = grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups.Single();

        Assert.Equal("GET /points/{id}", culprit.Endpoint?.ToString());
        Assert.Equal(Here + "IlLoyalty.Points", culprit.UserFrame!.FullName);
        Assert.Equal("Task.Result", culprit.BlockingCall.Name);
        Assert.Equal(CodePlace.MinimalApi, culprit.Place);
        // The awaited method that completed and resumed the handler is below the continuation, not in the chain.
        Assert.Equal(["GET /points/{id} handler", "IlLoyalty.Points"], culprit.Chain.Select(h => h.Name));
        Assert.Equal([HopSource.Stack, HopSource.Il], culprit.Chain.Select(h => h.From));
        // Without the activity the thread's own events say nothing: no Kestrel frame links it to a request.
        Assert.Null(index.Find(wait.ThreadId, wait.StartMs, wait.Frames));
    }

    [Fact]
    public void Grouper_MvcActionInlinedWhoseRequestStartedBeforeTheCapture_IsTheOneActionWhoseIlMakesTheCall()
    {
        // 1,000 requests asleep since before the capture: no MVC event names the action inlined into its invoker. Another
        // action hands Thread.Sleep to Task.Run, which runs elsewhere and cannot have been inlined there.
        var frames = Of(One(Sleep), MvcAction, PoolBottom);

        var culprit = Single(new BlockedStackGrouper(_classifier, 14, null, _code), frames);

        Assert.Equal(Here + "IlSleepController.Sleep", culprit.UserFrame!.FullName);
        Assert.Equal(HopSource.Il, culprit.Chain.Single().From);
        Assert.Equal(CodePlace.MvcAction, culprit.Place);
    }

    [Fact]
    public void IsEndpointHandler_LambdaHandedToMapGet_IsAndATaskRunBodyIsNot()
    {
        Assert.True(_code.IsEndpointHandler(Here + "IlEndpoints+<>c", "<Map>b__0_0"));
        Assert.False(_code.IsEndpointHandler(Here + "IlCommand+<>c", "<ExecuteAsync>b__0_0"));
        Assert.Equal((Here + "IlEndpoints+<>c", "<Map>b__0_0"), ApplicationCode.AsyncMethodOf(Here + "IlEndpoints+<>c+<<Map>b__0_0>d"));
    }

    private static BlockedStackGroup Single(BlockedStackGrouper grouper, IReadOnlyList<StackFrame> frames)
    {
        grouper.Add(new ThreadObservation(1, 0, 1000, frames, ObservationSource.Sample));
        return grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups.Single();
    }

    public void Dispose() => _code.Dispose();
}

/// <summary>Shaped like the corpus's warehouse client: waits on the task of its own async helper.</summary>
internal sealed class IlWarehouse
{
    public int Refresh(string sku)
    {
        var fetch = FetchLevelAsync(sku);
        fetch.Wait();
        return fetch.Result;
    }

    private static async Task<int> FetchLevelAsync(string sku)
    {
        await Task.Yield();
        return sku.Length;
    }
}

/// <summary>A background service that hands each item to a Task.Run body.</summary>
internal sealed class IlDispatcher : BackgroundService
{
    protected override Task ExecuteAsync(CancellationToken stoppingToken) => Run(stoppingToken);

    private Task Run(CancellationToken stoppingToken) => Task.Run(Deliver, stoppingToken);

    private static void Deliver() => Thread.Sleep(1);
}

/// <summary>A minimal API whose async handler reads a balance synchronously after its first await.</summary>
internal static class IlEndpoints
{
    public static void Map(IEndpointRouteBuilder app) =>
        app.MapGet("/points/{id}", async (int id) =>
        {
            await Task.Yield();
            return IlLoyalty.Points(id);
        });
}

internal static class IlLoyalty
{
    public static int Points(int id) => BalanceAsync(id).Result;

    private static async Task<int> BalanceAsync(int id)
    {
        await Task.Yield();
        return id;
    }
}

/// <summary>Shaped like tplab's target: one action sleeps, another hands the sleep to Task.Run.</summary>
internal sealed class IlSleepController : ControllerBase
{
    public IActionResult Sleep(int ms)
    {
        Thread.Sleep(ms);
        return Ok();
    }

    public async Task<IActionResult> SleepTaskRun(int ms)
    {
        await Task.Run(() => Thread.Sleep(ms));
        return Ok();
    }
}

/// <summary>A command whose method is called ExecuteAsync, and which is no hosted service.</summary>
internal static class IlCommand
{
    public static Task ExecuteAsync() => Task.Run(() => Thread.Sleep(1));
}
