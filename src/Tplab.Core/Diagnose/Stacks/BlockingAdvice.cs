namespace Tplab.Diagnose.Stacks;

/// <summary>What to do about a blocked stack, per blocking call and context, in the words of a code review.</summary>
public static class BlockingAdvice
{
    /// <summary>One or two sentences: why this holds a pool thread, and the change that gives it back.</summary>
    public static string For(BlockedStack stack)
    {
        var call = stack.Call;
        var method = stack.User?.DisplayName;
        var where = method is null ? "the caller (no application frame on the stack; read the sample stack)" : method;
        var taskRun = stack.Context.HasFlag(CallContext.TaskRun);
        var asyncMethod = stack.Context.HasFlag(CallContext.AsyncMethod);
        var request = stack.Context.HasFlag(CallContext.RequestPath) ? " while the request waits" : "";
        var asyncApi = AsyncName(call);

        return call.Kind switch
        {
            BlockingKind.Sleep when taskRun =>
                $"`await Task.Run(() => Thread.Sleep(...))` only moves the sleep to another pool thread, which it holds for the whole wait. Drop the Task.Run and `await Task.Delay(...)` in {where}.",
            BlockingKind.Sleep =>
                $"Thread.Sleep holds the pool thread for the whole wait{request}. Make {where} async and `await Task.Delay(...)` instead.",

            BlockingKind.SyncOverAsync when taskRun =>
                $"{Form(call)} inside a Task.Run body blocks that pool thread until the inner task completes. Make the lambda async and await, or await the inner task directly in {where}.",
            BlockingKind.SyncOverAsync =>
                $"{Form(call)} blocks the pool thread until the task completes{request} (sync over async), and the task's own continuation needs another pool thread to finish. Make {where} async and `await` the call instead.",

            BlockingKind.Lock =>
                $"Pool threads queue on a contended lock in {where}. Keep the critical section short and free of I/O; if it must wait for async work, use `await semaphore.WaitAsync()` instead of lock.",
            BlockingKind.SyncWait =>
                $"{call.Name} blocks the pool thread until something signals it. In {where}, await an async signal instead (`await semaphore.WaitAsync()`, an awaited TaskCompletionSource, a Channel).",

            BlockingKind.SyncDatabaseIO when taskRun =>
                $"`await Task.Run(() => ...{call.Name}())` still holds a pool thread for the whole database call; Task.Run only moves it. Call the driver's async API directly in {where}: `await ...{asyncApi}(...)`.",
            BlockingKind.SyncDatabaseIO when asyncMethod =>
                $"{where} is async but calls the synchronous {call.Name}, which holds the pool thread until the database answers. Use `await ...{asyncApi}(...)`.",
            BlockingKind.SyncDatabaseIO =>
                $"{call.Name} is synchronous: the pool thread waits for the database{request}. Make {where} async and use `await ...{asyncApi}(...)`.",

            BlockingKind.SyncHttp =>
                $"{call.Name} is a synchronous HTTP call: the pool thread waits for the server{request}. In {where}, use `await client.SendAsync(...)` (or GetAsync/PostAsync).",
            BlockingKind.SyncSocketIO or BlockingKind.SyncStreamIO =>
                $"{call.Name} is synchronous I/O: the pool thread waits for the data{request}. In {where}, use the async form `await ...{asyncApi}(...)`{(taskRun ? " instead of wrapping it in Task.Run" : "")}.",
            _ => $"{call.Name} holds the pool thread in {where}; replace it with an awaited asynchronous equivalent.",
        };
    }

    private static string Form(BlockingCall call) => call.Name switch
    {
        "Task.Result" => "`.Result`",
        "Task.Wait" => "`.Wait()`",
        "GetAwaiter().GetResult()" => "`.GetAwaiter().GetResult()`",
        _ => call.Name,
    };

    // NpgsqlCommand.ExecuteNonQuery → ExecuteNonQueryAsync; Dapper's Query → QueryAsync.
    private static string AsyncName(BlockingCall call) => call.Frame.MethodName + "Async";
}
