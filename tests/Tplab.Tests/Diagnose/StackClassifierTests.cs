using Tplab.Blocking;
using Tplab.Diagnose.Stacks;
using static Tplab.Tests.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>Classification of hand-built stacks: pool thread or not, blocking call, user frame, context.</summary>
[ParallelSafe]
public sealed class StackClassifierTests
{
    private readonly StackClassifier _classifier = new();

    [Fact]
    public void Classify_SleepInAction_IsThreadSleepInTheActionOnARequestPath()
    {
        var stack = _classifier.Classify(Of(One(Sleep), One("Tplab.Target!Tplab.Target.Controllers.WaitController.Sleep()"), MvcAction, PoolBottom));

        Assert.NotNull(stack);
        Assert.Equal(BlockingKind.Sleep, stack.Call.Kind);
        Assert.Equal("Thread.Sleep", stack.Call.Name);
        Assert.Equal("Tplab.Target.Controllers.WaitController.Sleep", stack.User!.FullName);
        Assert.Equal(CallContext.RequestPath, stack.Context);
    }

    // Task.Delay registers its timer under the timer queue's lock: on a busy machine, pool threads wait for it.
    private static readonly string[] TimerQueueLock =
    [
        "System.Private.CoreLib!System.Threading.Lock.EnterAndGetCurrentThreadId()",
        "System.Private.CoreLib!System.Threading.TimerQueueTimer.Change(unsigned int32,unsigned int32)",
        "System.Private.CoreLib!System.Threading.Tasks.Task+DelayPromise..ctor(unsigned int32,class System.TimeProvider)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.Delay(unsigned int32,class System.TimeProvider,value class System.Threading.CancellationToken)",
    ];

    [Fact]
    public void Classify_LockTakenInsideTaskDelay_IsTheFrameworksLock()
    {
        var stack = _classifier.Classify(Of(TimerQueueLock, One("App!Shop.OrderRepository+<LoadAsync>d__1.MoveNext()"), MvcAction, PoolBottom));

        Assert.Equal(BlockingKind.Lock, stack!.Call.Kind);
        Assert.Equal("Shop.OrderRepository.LoadAsync", stack.User!.FullName);
        Assert.True(stack.FrameworkLock);
    }

    [Fact]
    public void Classify_TheAppsOwnLock_IsNotTheFrameworks()
    {
        var stack = _classifier.Classify(Of(One("System.Private.CoreLib!System.Threading.Monitor.Enter_Slowpath(class System.Object)"), One("App!Shop.Inventory.Reserve(int32)"), MvcAction, PoolBottom));

        Assert.Equal(BlockingKind.Lock, stack!.Call.Kind);
        Assert.False(stack.FrameworkLock);
    }

    [Fact]
    public void Classify_LockOnAspNetCoresInvoker_IsInlinedAppCodeNotTheFrameworks()
    {
        // A filter's lock, the filter inlined into MVC's invoker through guarded devirtualization.
        var stack = _classifier.Classify(Of(One("System.Private.CoreLib!System.Threading.Monitor.Enter_Slowpath(class System.Object)"),
            One("Microsoft.AspNetCore.Mvc.Core!Microsoft.AspNetCore.Mvc.Infrastructure.ResourceInvoker.Next(value class State&,value class Scope&,class System.Object&,bool&)"), MvcAction, PoolBottom));

        Assert.False(stack!.FrameworkLock);
    }

    [Fact]
    public void Classify_ResultOnATask_NamesTaskResultNotTheInnerMonitorWait()
    {
        var stack = _classifier.Classify(Of(ResultWait, One("App!Shop.OrdersController.Get()"), MvcAction, PoolBottom));

        Assert.Equal(BlockingKind.SyncOverAsync, stack!.Call.Kind);
        Assert.Equal("Task.Result", stack.Call.Name);
        Assert.Equal("OrdersController.Get", stack.User!.DisplayName);
    }

    [Fact]
    public void Classify_SyncNpgsqlCall_NamesThePublicDriverCallTheApplicationMade()
    {
        var stack = _classifier.Classify(Of(NpgsqlExecuteNonQuery, One("App!Shop.Repo.Save()"), MvcAction, PoolBottom));

        Assert.Equal(BlockingKind.SyncDatabaseIO, stack!.Call.Kind);
        Assert.Equal("NpgsqlCommand.ExecuteNonQuery", stack.Call.Name);
        Assert.Equal("Shop.Repo.Save", stack.User!.FullName);
    }

    [Fact]
    public void Classify_NpgsqlAsyncCallPassingThroughItsSyncNamedCore_IsNotBlocking()
    {
        // Recorded on an async endpoint under load: ExecuteScalarAsync runs ExecuteScalar(async: true), and a socket
        // send's system call shows as an External sample. The application called the async API.
        var stack = _classifier.Classify(Of(NpgsqlAsyncExecuteScalar, One("App!Shop.Repo+<FindAsync>d__3.MoveNext()"), MvcAction, PoolBottom));

        Assert.Null(stack);
    }

    [Fact]
    public void Classify_SyncNpgsqlCallWhosePublicMethodWasInlined_IsStillTheSyncCall()
    {
        // ExecuteScalar() inlined into the application's method: its core ExecuteScalar(async: false) sits right on it.
        var stack = _classifier.Classify(Of(NpgsqlAsyncExecuteScalar[..^1], One("App!Shop.Repo.Find(int32)"), MvcAction, PoolBottom));

        Assert.Equal("NpgsqlCommand.ExecuteScalar", stack!.Call.Name);
        Assert.Equal("Shop.Repo.Find", stack.User!.FullName);
    }

    [Fact]
    public void Classify_LambdaRunByTaskRun_IsAttributedToTheEnclosingActionInsideTaskRun()
    {
        var lambda = "Tplab.Target!Tplab.Target.Controllers.DbController+<>c__DisplayClass4_0.<DbTaskRun>b__0()";
        var stack = _classifier.Classify(Of(NpgsqlExecuteNonQuery, One(lambda), TaskRunBottom, PoolBottom));

        Assert.Equal("Tplab.Target.Controllers.DbController.DbTaskRun", stack!.User!.FullName);
        Assert.Equal(UserFrameShape.Lambda, stack.User.Shape);
        Assert.Equal(CallContext.TaskRun, stack.Context);
    }

    [Fact]
    public void Classify_AsyncMethodCallingSyncApi_IsAttributedToTheAsyncMethod()
    {
        var machine = "Tplab.Target!Tplab.Target.Controllers.DbController+<DbAsyncSyncCall>d__2.MoveNext()";
        var stack = _classifier.Classify(Of(NpgsqlExecuteNonQuery, One(machine), MvcAction, PoolBottom));

        Assert.Equal("DbController.DbAsyncSyncCall", stack!.User!.DisplayName);
        Assert.Equal(CallContext.AsyncMethod | CallContext.RequestPath, stack.Context);
    }

    [Fact]
    public void Classify_IdlePoolThread_IsNotBlocked()
    {
        var idle = Of(
            One("System.Private.CoreLib!System.Threading.LowLevelLifoSemaphore.WaitNative(class Microsoft.Win32.SafeHandles.SafeWaitHandle,int32)"),
            One("System.Private.CoreLib!System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart()"));

        Assert.Equal(ThreadRole.IdlePoolThread, StackClassifier.RoleOf(idle));
        Assert.Null(_classifier.Classify(idle));
    }

    [Fact]
    public void Classify_BlockedNonPoolThread_IsIgnored()
    {
        var heartbeat = Of(ResultWait.Take(2), One("Microsoft.AspNetCore.Server.Kestrel.Core!Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Infrastructure.Heartbeat.TimerLoop()"),
            One("System.Private.CoreLib!System.Threading.Thread.StartCallback()"));

        Assert.Equal(ThreadRole.NotPool, StackClassifier.RoleOf(heartbeat));
        Assert.Null(_classifier.Classify(heartbeat));
    }

    [Fact]
    public void Classify_PoolThreadInUnknownNativeCall_IsNotReported()
    {
        var stack = Of(One("App!Native.Interop.Compute()"), MvcAction, PoolBottom);

        Assert.Null(_classifier.Classify(stack));
    }

    [Fact]
    public void Classify_ExtraLibraryPrefix_MovesTheUserFrameToTheCaller()
    {
        var classifier = new StackClassifier(new LibraryCode(["Acme.Data"]));
        var stack = classifier.Classify(Of(One(Sleep), One("Acme.Data!Acme.Data.Retry.Run()"), One("App!Shop.Orders.Load()"), MvcAction, PoolBottom));

        Assert.Equal("Shop.Orders.Load", stack!.User!.FullName);
    }

    [Theory]
    // the method as written
    [InlineData("App!Shop.Api.Get()", "Shop.Api.Get", UserFrameShape.Method)]
    // lambdas: in a closure class, in the static <>c class, local functions
    [InlineData("App!Shop.Api+<>c__DisplayClass4_0.<Get>b__0()", "Shop.Api.Get", UserFrameShape.Lambda)]
    [InlineData("App!Shop.Api+<>c.<Get>b__3_1(int32)", "Shop.Api.Get", UserFrameShape.Lambda)]
    [InlineData("App!Shop.Api.<Get>g__Load|2_0()", "Shop.Api.Get", UserFrameShape.Lambda)]
    // async state machines, also of a local function
    [InlineData("App!Shop.Api+<Get>d__7.MoveNext()", "Shop.Api.Get", UserFrameShape.AsyncStateMachine)]
    [InlineData("App!Shop.Api+<<Get>g__Load|2_0>d.MoveNext()", "Shop.Api.Get", UserFrameShape.AsyncStateMachine)]
    // generic types keep their arity, lose their instantiation
    [InlineData("App!Shop.Cache`1[System.__Canon].Fill()", "Shop.Cache`1.Fill", UserFrameShape.Method)]
    public void UserMethodFrom_CompilerGeneratedNames_FoldIntoTheWrittenMethod(string frame, string fullName, UserFrameShape shape)
    {
        var user = UserMethod.From(Frame(frame));

        Assert.Equal(fullName, user.FullName);
        Assert.Equal(shape, user.Shape);
    }

    [Theory]
    [InlineData("System.Threading.Tasks.Task`1[System.__Canon].GetResultCore(bool)", "System.Threading.Tasks.Task`1[System.__Canon]", "GetResultCore")]
    [InlineData("Npgsql.Internal.NpgsqlReadBuffer.<Ensure>g__EnsureLong|54_0(class X)", "Npgsql.Internal.NpgsqlReadBuffer", "<Ensure>g__EnsureLong|54_0")]
    [InlineData("Shop.Api..ctor()", "Shop.Api", ".ctor")]
    [InlineData("", "", "")]
    public void StackFrameParse_SplitsTypeAndMethodOutsideBrackets(string fullMethodName, string type, string method)
    {
        var frame = StackFrame.Parse("M", fullMethodName);

        Assert.Equal(type, frame.TypeName);
        Assert.Equal(method, frame.MethodName);
    }
}
