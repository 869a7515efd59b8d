using Tplab.Blocking;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Output;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;
using Tplab.Diagnose;
using Tplab.Processes;
using static Tplab.Tests.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>
/// Attribution on stacks shaped as a Release build with tiered compilation and PGO leaves them (recorded from
/// ordinary minimal-API and MVC apps): endpoint boundary, call chain, inlined frames, place, and the request's endpoint.
/// </summary>
[ParallelSafe]
public sealed class AttributionTests
{
    private const string UserMiddleware = "app!Program+<>c+<<<Main>$>b__0_1>d.MoveNext()";

    private static readonly string[] MiddlewareBelow =
    [
        "Microsoft.AspNetCore.Routing!Microsoft.AspNetCore.Routing.EndpointMiddleware.Invoke(class Microsoft.AspNetCore.Http.HttpContext)",
        UserMiddleware,
        "System.Private.CoreLib!System.Runtime.CompilerServices.AsyncMethodBuilderCore.Start(!!0&)",
        "app!Program+<>c.<<Main>$>b__0_1(class Microsoft.AspNetCore.Http.HttpContext,class Microsoft.AspNetCore.Http.RequestDelegate)",
        "Microsoft.AspNetCore.Server.Kestrel.Core!Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol+<ProcessRequests>d__237`1[System.__Canon].MoveNext()",
    ];

    private readonly StackClassifier _classifier = new();

    [Fact]
    public void Classify_MinimalApiHandlerInlinedIntoItsDelegate_BlamesNoMiddleware()
    {
        // The JIT inlined the handler and its helpers into the endpoint's compiled delegate: Sleep sits right on it.
        var stack = _classifier.Classify(Of(One(Sleep), One(RequestDelegate), MiddlewareBelow, PoolBottom))!;

        Assert.Null(stack.User);
        Assert.Equal(CodePlace.MinimalApi, stack.Place);
        Assert.Equal("dynamicClass.lambda_method4", stack.Boundary!.FullName);
    }

    [Fact]
    public void Classify_MinimalApiHandlerCallingHelpers_ChainRunsOutermostToInnermost()
    {
        var stack = _classifier.Classify(Of(
            One(Sleep),
            One("app!Shop.PriceClient.GetPrice(int32)"),
            One("app!Shop.OrderService.Load(int32)"),
            One("app!Program+<>c.<<Main>$>b__0_2(int32,class Shop.OrderService)"),
            One(RequestDelegate), MiddlewareBelow, PoolBottom))!;

        Assert.Equal("Shop.PriceClient.GetPrice", stack.User!.FullName);
        Assert.Equal(["Program.Main (lambda)", "OrderService.Load", "PriceClient.GetPrice"], stack.Chain.Select(m => m.DisplayName));
        Assert.Equal(CodePlace.MinimalApi, stack.Place);
    }

    [Fact]
    public void Classify_MiddlewareInlinedIntoUseMiddlewaresInvoker_IsAMiddlewareAndBlamesNotTheOneBelow()
    {
        // UseMiddleware compiles (Closure, middleware, HttpContext, IServiceProvider) for an InvokeAsync with services;
        // the JIT inlined the middleware into it. The async middleware below only awaited next().
        var invoker = "Anonymously Hosted DynamicMethods Assembly!dynamicClass.lambda_method1(pMT: 0x1,class System.Object,pMT: 0x2,pMT: 0x3)";
        var stack = _classifier.Classify(Of(ResultWait, One(invoker), One("app!Shop.TimingMiddleware+<InvokeAsync>d__3.MoveNext()"), MiddlewareBelow.Skip(2), PoolBottom))!;

        Assert.Null(stack.User);
        Assert.Equal(CodePlace.Middleware, stack.Place);
        Assert.Equal(4, stack.Boundary!.ParameterCount);
    }

    [Fact]
    public void Classify_FilterInlinedIntoMvcsInvoker_IsAFilterAndBlamesNotTheMiddlewareBelow()
    {
        // PGO devirtualized and inlined the filter (and what it called) into MVC's invoker; Task.Wait went too.
        var stack = _classifier.Classify(Of(
            TaskWait.Take(3),
            One("Microsoft.AspNetCore.Mvc.Core!Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker.Next(value class State&,value class Scope&,class System.Object&,bool&)"),
            One("Microsoft.AspNetCore.Mvc.Core!Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker.InvokeInnerFilterAsync()"),
            One("app!Shop.TimingMiddleware+<InvokeAsync>d__3.MoveNext()"), MiddlewareBelow.Skip(2), PoolBottom))!;

        Assert.Null(stack.User);
        Assert.Equal(CodePlace.Filter, stack.Place);
        Assert.Equal("Task wait", stack.Call.Name);
    }

    [Fact]
    public void Classify_FilterWithItsOwnFrame_ChainStartsAtTheFilterNotTheMiddlewareBelow()
    {
        var stack = _classifier.Classify(Of(
            TaskWait,
            One("app!Shop.AuditLog.Record(class System.String)"),
            One("app!Shop.AuditFilter.OnActionExecuting(class Microsoft.AspNetCore.Mvc.Filters.ActionExecutingContext)"),
            One("Microsoft.AspNetCore.Mvc.Core!Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker.Next(value class State&,value class Scope&,class System.Object&,bool&)"),
            One("app!Shop.TimingMiddleware+<InvokeAsync>d__3.MoveNext()"), MiddlewareBelow.Skip(2), PoolBottom))!;

        Assert.Equal(CodePlace.Filter, stack.Place);
        Assert.Equal(["AuditFilter.OnActionExecuting", "AuditLog.Record"], stack.Chain.Select(m => m.DisplayName));
    }

    [Fact]
    public void Classify_MiddlewareThatBlocksItself_IsAMiddleware()
    {
        var stack = _classifier.Classify(Of(One(Sleep), MiddlewareBelow.Skip(1), PoolBottom))!;

        Assert.Equal("Program.Main (lambda)", stack.User!.DisplayName);
        Assert.Equal(CodePlace.Middleware, stack.Place);
        Assert.Contains("middleware", stack.Advice(), StringComparison.Ordinal);
    }

    [Fact]
    public void Classify_ContendedLockAtTier1_IsALockInTheMethodHoldingIt()
    {
        // At Tier 1 Monitor.Enter's fast path is inlined; only its slow path is on the stack.
        var stack = _classifier.Classify(Of(
            One("System.Private.CoreLib!System.Threading.Monitor.Enter_Slowpath(class System.Object)"),
            One("app!Shop.Cache.Refresh()"), One(RequestDelegate), MiddlewareBelow, PoolBottom))!;

        Assert.Equal(BlockingKind.Lock, stack.Call.Kind);
        Assert.Equal("Shop.Cache.Refresh", stack.User!.FullName);
    }

    [Fact]
    public void Classify_StreamReaderOnTheRequestBody_IsNamedAsTheReaderNotKestrelsAwaiter()
    {
        var stack = _classifier.Classify(Of(
            ResultWait.Take(3),
            One("System.Private.CoreLib!System.Runtime.CompilerServices.TaskAwaiter`1[System.Int32].GetResult()"),
            One("Microsoft.AspNetCore.Server.Kestrel.Core!Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpRequestStream.Read(value class System.Span`1<unsigned int8>)"),
            One("System.Private.CoreLib!System.IO.StreamReader.ReadBuffer()"),
            One(RequestDelegate), MiddlewareBelow, PoolBottom))!;

        Assert.StartsWith("StreamReader", stack.Call.Name, StringComparison.Ordinal);
        Assert.Equal("the request body", stack.Call.On);
        var advice = stack.Advice();
        Assert.Contains("ReadToEndAsync", advice, StringComparison.Ordinal);
        Assert.DoesNotContain("GetResult", advice, StringComparison.Ordinal);
    }

    [Fact]
    public void Advice_SyncSocketCall_NeverSuggestsAnInternalApi()
    {
        var stack = _classifier.Classify(Of(NpgsqlExecuteNonQuery.Take(3), One("app!Shop.Telnet.Send()"), MvcAction, PoolBottom))!;

        Assert.DoesNotContain("PerformSyncOperationAsync", stack.Advice(), StringComparison.Ordinal);
    }

    [Fact]
    public void Classify_UnknownWaitReportedByTheRuntime_IsAnUnrecognisedWaitNotDropped()
    {
        var frames = Of(One("app!Native.Interop.Compute()"), MvcAction, PoolBottom);

        Assert.Null(_classifier.Classify(frames));
        var stack = _classifier.Classify(frames, unrecognisedWait: true)!;
        Assert.Equal(BlockingKind.Unrecognised, stack.Call.Kind);
        Assert.Equal("Interop.Compute", stack.Call.Name);
    }

    [Fact]
    public void RequestIndex_StackInKestrelsRequestLoop_IsTheRequestStartedLastOnThatThread()
    {
        var id = Guid.NewGuid();
        var index = new RequestIndex(
        [
            new RequestEvent(RequestEventKind.Start, 5, 10, id, new Dictionary<string, string> { ["method"] = "GET", ["path"] = "/orders/42" }),
            new RequestEvent(RequestEventKind.EndpointMatched, 5, 11, id, new Dictionary<string, string> { ["Values"] = "[id, 42]" }),
        ]);
        var frames = Of(One(Sleep), One(RequestDelegate), MiddlewareBelow, PoolBottom);

        Assert.Equal("GET /orders/{id}", index.Find(5, 20, frames)?.ToString());
        Assert.Null(index.Find(6, 20, frames));
        Assert.Null(index.Find(5, 5, frames));
    }

    [Fact]
    public void Grouper_MvcActionInlinedIntoItsInvoker_IsNamedFromMvcsEventAndSaysWhereItWent()
    {
        var id = Guid.NewGuid();
        var index = new RequestIndex(
        [
            new RequestEvent(RequestEventKind.Start, 3, 1, id, new Dictionary<string, string> { ["method"] = "GET", ["path"] = "/http-result" }),
            new RequestEvent(RequestEventKind.BeforeAction, 3, 2, id, new Dictionary<string, string>
            {
                ["Type"] = "Shop.HttpController", ["Action"] = "HttpResult", ["Template"] = "http-result",
            }),
        ]);
        var frames = Of(ResultWait, MvcAction, PoolBottom);
        var grouper = new BlockedStackGrouper(_classifier, 14);
        grouper.Add(new ThreadObservation(3, 0, 1000, frames, ObservationSource.WaitEvent), index.Find(3, 1000, frames));

        var culprit = grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups.Single();

        Assert.Equal("Shop.HttpController.HttpResult", culprit.UserFrame!.FullName);
        Assert.Contains("[ASP.NET Core's compiled invoker of HttpController.HttpResult]", culprit.Stack);
        Assert.Equal("GET /http-result", culprit.Endpoint!.ToString());
        Assert.Equal(CodePlace.MvcAction, culprit.Place);
    }

    [Fact]
    public void Grouper_HelperInlinedWithoutReadableIl_NamesTheFrameOnTheStackAndGuessesNothing()
    {
        // The JIT's events say GetPrice went into Load, but not that GetPrice made the call (the IL would): Load is what the stack shows.
        var inlines = new InlineIndex([new Inlining("Shop.OrderService.Load", "Shop.OrderService.Load", "Shop.PriceClient.GetPrice")], new LibraryCode());
        var frames = Of(One(Sleep), One("app!Shop.OrderService.Load(int32)"), MvcAction, PoolBottom);
        var grouper = new BlockedStackGrouper(_classifier, 14, inlines);
        grouper.Add(new ThreadObservation(1, 0, 1000, frames, ObservationSource.Sample));

        var culprit = grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups.Single();

        Assert.Equal("Shop.OrderService.Load", culprit.UserFrame!.FullName);
        Assert.Equal([("OrderService.Load", HopSource.Stack)], culprit.Chain.Select(h => (h.Name, h.From)));
    }

    [Fact]
    public void Grouper_ContainerLockBehindASlowFactory_RanksTheFactoryFirst()
    {
        const string resolver = "Microsoft.Extensions.DependencyInjection!Microsoft.Extensions.DependencyInjection.ServiceLookup.CallSiteRuntimeResolver.VisitRootCache(class ServiceCallSite,value class RuntimeResolverContext)";
        var symptom = Of(One("System.Private.CoreLib!System.Threading.Monitor.Enter_Slowpath(class System.Object)"), One(resolver), One("app!Shop.OrdersController.Get()"), MvcAction, PoolBottom);
        var cause = Of(One(Sleep), One("app!Program+<>c.<<Main>$>b__0_3(class System.IServiceProvider)"), One(resolver), One("app!Shop.OrdersController.Get()"), MvcAction, PoolBottom);
        var grouper = new BlockedStackGrouper(_classifier, 30);
        for (var t = 1; t <= 5; t++)
        {
            grouper.Add(new ThreadObservation(t, 0, 1000, symptom, ObservationSource.WaitEvent));
        }
        grouper.Add(new ThreadObservation(9, 0, 1000, cause, ObservationSource.Sample));

        var groups = grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups;

        Assert.Equal(["Thread.Sleep", "lock (Monitor.Enter)"], groups.Select(g => g.BlockingCall.Name));
        Assert.True(groups[1].BlockingCall.ContainerLock);
        Assert.Contains("symptom", groups[1].Advice, StringComparison.Ordinal);
    }

    [Fact]
    public void Grouper_FactoryWhoseRequestStartedBeforeTheCapture_IsNamedFromTheEndpointDelegateOthersRan()
    {
        const string resolver = "Microsoft.Extensions.DependencyInjection!Microsoft.Extensions.DependencyInjection.ServiceLookup.CallSiteRuntimeResolver.VisitRootCache(class ServiceCallSite,value class RuntimeResolverContext)";
        var lockWait = Of(One("System.Private.CoreLib!System.Threading.Monitor.Enter_Slowpath(class System.Object)"), One(resolver), One(RequestDelegate), MiddlewareBelow, PoolBottom);
        var factory = Of(One(Sleep), One("app!Shop.RatesLoader.Load()"), One(resolver), One(RequestDelegate), MiddlewareBelow, PoolBottom);
        var grouper = new BlockedStackGrouper(_classifier, 30);
        grouper.Add(new ThreadObservation(1, 0, 1000, lockWait, ObservationSource.WaitEvent), new Endpoint("GET", "/fx/convert", null));
        grouper.Add(new ThreadObservation(2, 0, 1000, lockWait, ObservationSource.Sample));
        grouper.Add(new ThreadObservation(9, 0, 1000, factory, ObservationSource.Sample));

        var groups = grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups;

        Assert.Equal(["Thread.Sleep", "lock (Monitor.Enter)"], groups.Select(g => g.BlockingCall.Name));
        Assert.Equal("GET /fx/convert", groups[0].Endpoint?.ToString());
        // The waiter whose request started before the capture joins the named one's group.
        Assert.Equal(2, groups[1].DistinctThreads);
    }

    [Fact]
    public void Analyse_PoolThreadsBusyInApplicationCode_IsCpuBoundWithTheHotMethod()
    {
        var hot = Of(One("app!Shop.Pricing.Compute(int32)"), One(RequestDelegate), MiddlewareBelow, PoolBottom);
        var samples = Enumerable.Range(0, 2000).Select(i => new RawSample(1 + (i % 2), i / 2.0, External: false, hot)).ToList();
        var capture = new StackCaptureResult(new CapturedStacks(samples, [], 0, 1000, 0), TimeSpan.FromSeconds(1));

        var diagnosis = BlockingDiagnoser.Analyse(new TargetFacts(1, "shop", new Version(10, 0)), capture, new DiagnoseOptions(), TimeSpan.FromSeconds(1));

        Assert.Equal(DiagnosisVerdict.CpuBound, diagnosis.Verdict);
        Assert.Empty(diagnosis.Culprits);
        Assert.Equal("Shop.Pricing.Compute", diagnosis.HotMethods[0].Method.FullName);
    }

    [Fact]
    public void Writers_NoApplicationFrame_SayTheSameInTextAndJson()
    {
        var grouper = new BlockedStackGrouper(_classifier, 14);
        grouper.Add(new ThreadObservation(1, 0, 1000, Of(One(Sleep), One(RequestDelegate), MiddlewareBelow, PoolBottom), ObservationSource.Sample));
        var (groups, _) = grouper.Complete(TimeSpan.FromSeconds(1), 0.2);
        var diagnosis = new Diagnosis(1, "shop", null, DiagnosisVerdict.Blocked, groups, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), new StackEvidence(1, 0, 1, 1, 1, null));
        var text = new StringWriter();
        new DiagnosisTextWriter().Write(diagnosis, text);
        var json = new StringWriter();
        new DiagnosisJsonWriter().Write(diagnosis, json);

        Assert.Contains(CulpritNames.NoApplicationFrame, text.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("library code only", text.ToString(), StringComparison.Ordinal);
        using var doc = System.Text.Json.JsonDocument.Parse(json.ToString());
        var culprit = doc.RootElement.GetProperty("culprits")[0];
        Assert.Equal(System.Text.Json.JsonValueKind.Null, culprit.GetProperty("userFrame").ValueKind);
        Assert.False(culprit.TryGetProperty("inlinedInto", out _));
        Assert.Equal(0, culprit.GetProperty("chain").GetArrayLength());
        Assert.Equal("minimal-api", culprit.GetProperty("place").GetString());
        // Names nobody wrote never reach the reader: the compiled invoker is named by what it runs.
        Assert.DoesNotContain("lambda_method", text.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("lambda_method", json.ToString(), StringComparison.Ordinal);
    }
}
