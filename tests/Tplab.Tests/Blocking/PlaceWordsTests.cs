using Tplab.Blocking;
using Tplab.Tests.Support;

namespace Tplab.Tests.Blocking;

/// <summary>The place, context and kind words of diagnose's and scan's JSON and SARIF: written by the enum-word converter, and the same words as before.</summary>
[ParallelSafe]
public sealed class PlaceWordsTests
{
    public static TheoryData<CodePlace, string> Places => new()
    {
        { CodePlace.Unknown, "unknown" },
        { CodePlace.MvcAction, "mvc-action" },
        { CodePlace.MinimalApi, "minimal-api" },
        { CodePlace.Middleware, "middleware" },
        { CodePlace.Filter, "filter" },
        { CodePlace.RazorPage, "razor-page" },
        { CodePlace.Hub, "hub" },
        { CodePlace.HostedService, "hosted-service" },
        { CodePlace.Timer, "timer" },
        { CodePlace.DiFactory, "di-factory" },
        { CodePlace.Grpc, "grpc" },
        { CodePlace.ViewComponent, "view-component" },
        { CodePlace.DelegatingHandler, "delegating-handler" },
        { CodePlace.HealthCheck, "health-check" },
        { CodePlace.AuthorizationHandler, "authorization-handler" },
        { CodePlace.RequestHandler, "request-handler" },
        { CodePlace.BlazorComponent, "blazor-component" },
        { CodePlace.PoolCallback, "pool-callback" },
        { CodePlace.FrameworkCallback, "framework-callback" },
    };

    public static TheoryData<BlockingKind, string> Kinds => new()
    {
        { BlockingKind.Sleep, "sleep" },
        { BlockingKind.SyncOverAsync, "sync-over-async" },
        { BlockingKind.Lock, "lock" },
        { BlockingKind.SyncWait, "sync-wait" },
        { BlockingKind.SyncDatabaseIO, "sync-database-io" },
        { BlockingKind.SyncHttp, "sync-http" },
        { BlockingKind.SyncSocketIO, "sync-socket-io" },
        { BlockingKind.SyncStreamIO, "sync-stream-io" },
        { BlockingKind.Unrecognised, "unrecognised-wait" },
        { BlockingKind.Parallel, "parallel" },
        { BlockingKind.TaskRunOffload, "task-run" },
    };

    [Theory]
    [MemberData(nameof(Places))]
    public void Id_EveryPlace_IsItsWord(CodePlace place, string word) => Assert.Equal(word, PlaceWords.Id(place));

    [Fact]
    public void Id_EveryPlaceIsInTheTable() => Assert.Equal(Enum.GetValues<CodePlace>().Length, Places.Count);

    [Theory]
    [MemberData(nameof(Kinds))]
    public void KindId_EveryKind_IsItsWord(BlockingKind kind, string word) => Assert.Equal(word, PlaceWords.KindId(kind));

    [Fact]
    public void KindId_EveryKindIsInTheTable() => Assert.Equal(Enum.GetValues<BlockingKind>().Length, Kinds.Count);

    [Fact]
    public void ContextIds_EveryFlag_ContinuationToo()
    {
        Assert.Equal(["request-path", "task-run", "async-method", "continuation"],
            PlaceWords.ContextIds(CallContext.RequestPath | CallContext.TaskRun | CallContext.AsyncMethod | CallContext.Continuation));
        Assert.Equal(["continuation"], PlaceWords.ContextIds(CallContext.Continuation));
        Assert.Empty(PlaceWords.ContextIds(CallContext.None));
    }
}
