using Tplab.Blocking;
using Tplab.Diagnose.Stacks;

namespace Tplab.Tests.Diagnose;

/// <summary>Hand-built stacks (top frame first) in TraceEvent's naming, as seen in real captures of the target.</summary>
internal static class Stacks
{
    public static readonly string[] PoolBottom =
    [
        "System.Private.CoreLib!System.Threading.ThreadPoolWorkQueue.Dispatch()",
        "System.Private.CoreLib!System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart()",
        "System.Private.CoreLib!System.Threading.Thread.StartCallback()",
    ];

    public static readonly string[] MvcAction =
    [
        "Anonymously Hosted DynamicMethods Assembly!dynamicClass.lambda_method5(pMT: 0x1,class System.Object,class System.Object[])",
        "Microsoft.AspNetCore.Mvc.Core!Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor+SyncActionResultExecutor.Execute()",
        "Microsoft.AspNetCore.Server.Kestrel.Core!Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol+<ProcessRequests>d__237`1[System.__Canon].MoveNext()",
    ];

    public static readonly string[] TaskRunBottom =
    [
        "System.Private.CoreLib!System.Threading.ExecutionContext.RunFromThreadPoolDispatchLoop(class System.Threading.Thread)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.ExecuteWithThreadLocal(class System.Threading.Tasks.Task&,class System.Threading.Thread)",
    ];

    public static readonly string[] ResultWait =
    [
        "System.Private.CoreLib!System.Threading.Monitor.Wait(class System.Object,int32)",
        "System.Private.CoreLib!System.Threading.ManualResetEventSlim.Wait(int32,value class System.Threading.CancellationToken)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.SpinThenBlockingWait(int32,value class System.Threading.CancellationToken)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.InternalWaitCore(int32,value class System.Threading.CancellationToken)",
        "System.Private.CoreLib!System.Threading.Tasks.Task`1[System.__Canon].GetResultCore(bool)",
    ];

    public static readonly string[] TaskWait =
    [
        "System.Private.CoreLib!System.Threading.ManualResetEventSlim.Wait(int32,value class System.Threading.CancellationToken)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.SpinThenBlockingWait(int32,value class System.Threading.CancellationToken)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.InternalWaitCore(int32,value class System.Threading.CancellationToken)",
        "System.Private.CoreLib!System.Threading.Tasks.Task.Wait()",
    ];

    public static readonly string[] NpgsqlExecuteNonQuery =
    [
        "System.Private.CoreLib!System.Threading.Monitor.Wait(class System.Object,int32)",
        "System.Private.CoreLib!System.Threading.ManualResetEventSlim.Wait(int32,value class System.Threading.CancellationToken)",
        "System.Net.Sockets!System.Net.Sockets.SocketAsyncContext.PerformSyncOperation()",
        "System.Net.Sockets!System.Net.Sockets.Socket.Receive(value class System.Span`1<unsigned int8>)",
        "System.Net.Sockets!System.Net.Sockets.NetworkStream.Read(unsigned int8[],int32,int32)",
        "Npgsql!Npgsql.Internal.NpgsqlReadBuffer.Ensure(int32,bool)",
        "System.Private.CoreLib!System.Runtime.CompilerServices.AsyncMethodBuilderCore.Start(!!0&)",
        "Npgsql!Npgsql.NpgsqlDataReader.NextResult()",
        "Npgsql!Npgsql.NpgsqlCommand+<ExecuteNonQuery>d__110.MoveNext()",
        "Npgsql!Npgsql.NpgsqlCommand.ExecuteNonQuery(bool,value class System.Threading.CancellationToken)",
        "Npgsql!Npgsql.NpgsqlCommand.ExecuteNonQuery()",
    ];

    /// <summary>Npgsql's async path (ExecuteScalarAsync → ExecuteScalar(async: true)) in a socket send, as recorded; the last frame is the async API.</summary>
    public static readonly string[] NpgsqlAsyncExecuteScalar =
    [
        "!",
        "System.Net.Sockets!System.Net.Sockets.SocketPal.TryCompleteSendTo(class System.Net.Sockets.SafeSocketHandle,unsigned int8[],int32,int32)",
        "System.Net.Sockets!System.Net.Sockets.Socket.SendAsync(class System.Net.Sockets.SocketAsyncEventArgs,value class System.Threading.CancellationToken)",
        "System.Net.Sockets!System.Net.Sockets.NetworkStream.WriteAsync(value class System.ReadOnlyMemory`1<unsigned int8>,value class System.Threading.CancellationToken)",
        "Npgsql!Npgsql.Internal.NpgsqlWriteBuffer+<Flush>d__40.MoveNext()",
        "System.Private.CoreLib!System.Runtime.CompilerServices.AsyncMethodBuilderCore.Start(!!0&)",
        "Npgsql!Npgsql.Internal.NpgsqlWriteBuffer.Flush(bool,value class System.Threading.CancellationToken)",
        "Npgsql!Npgsql.NpgsqlCommand+<ExecuteReader>d__122.MoveNext()",
        "System.Private.CoreLib!System.Runtime.CompilerServices.AsyncMethodBuilderCore.Start(!!0&)",
        "Npgsql!Npgsql.NpgsqlCommand.ExecuteReader(value class System.Data.CommandBehavior,bool,value class System.Threading.CancellationToken)",
        "Npgsql!Npgsql.NpgsqlCommand+<ExecuteScalar>d__113.MoveNext()",
        "System.Private.CoreLib!System.Runtime.CompilerServices.AsyncMethodBuilderCore.Start(!!0&)",
        "Npgsql!Npgsql.NpgsqlCommand.ExecuteScalar(bool,value class System.Threading.CancellationToken)",
        "Npgsql!Npgsql.NpgsqlCommand.ExecuteScalarAsync(value class System.Threading.CancellationToken)",
    ];

    public const string Sleep = "System.Private.CoreLib!System.Threading.Thread.Sleep(int32)";

    /// <summary>A minimal API's compiled request delegate (closure, target, HttpContext).</summary>
    public const string RequestDelegate = "Anonymously Hosted DynamicMethods Assembly!dynamicClass.lambda_method4(pMT: 0x1,class System.Object,pMT: 0x2)";

    /// <summary>Kestrel's request loop, below every request's synchronous part.</summary>
    public const string Kestrel = "Microsoft.AspNetCore.Server.Kestrel.Core!Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol+<ProcessRequests>d__237`1[System.__Canon].MoveNext()";

    /// <summary>Frames from "Module!Type.Method(sig)" strings.</summary>
    public static IReadOnlyList<StackFrame> Of(params IEnumerable<string>[] parts) =>
        [.. parts.SelectMany(p => p).Select(Frame)];

    public static StackFrame Frame(string text)
    {
        var bang = text.IndexOf('!', StringComparison.Ordinal);
        return StackFrame.Parse(text[..bang], text[(bang + 1)..]);
    }

    public static string[] One(string frame) => [frame];
}
