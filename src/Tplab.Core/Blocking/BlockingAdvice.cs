namespace Tplab.Blocking;

/// <summary>
/// What to do about a blocking call, in the words of a code review: why the call holds a pool thread, then the
/// change that gives it back, phrased for the place it runs in (an action, a middleware, a filter, a background
/// service...). Only public APIs are suggested.
/// </summary>
public static class BlockingAdvice
{
    /// <summary>
    /// One or two sentences for <paramref name="call"/> made by <paramref name="method"/> (<c>Type.Method</c>, or null
    /// when no application method is known), running in <paramref name="place"/> and <paramref name="context"/>;
    /// <paramref name="owner"/> is the middleware, page, filter or action it was reached from, when that is another method.
    /// </summary>
    public static string For(BlockingCall call, CodePlace place, CallContext context, string? method, string? owner = null)
    {
        ArgumentNullException.ThrowIfNull(call);
        if (owner is not null && method is not null && owner != method
            && place is CodePlace.Middleware or CodePlace.RazorPage or CodePlace.Filter or CodePlace.Hub or CodePlace.MvcAction)
        {
            method = $"{owner} (through {method})";
        }
        var request = context.HasFlag(CallContext.RequestPath) || place is CodePlace.MvcAction or CodePlace.MinimalApi or CodePlace.Middleware or CodePlace.Filter or CodePlace.RazorPage
            or CodePlace.Grpc or CodePlace.ViewComponent or CodePlace.HealthCheck or CodePlace.DelegatingHandler or CodePlace.AuthorizationHandler or CodePlace.RequestHandler
            ? " while the request waits" : "";
        if (call.ContainerLock)
        {
            return "Threads queue on the dependency-injection container's lock while another thread runs a slow service factory: "
                + "this is the symptom; the culprit is the factory (the blocking call ranked above). Make the factory cheap, or build the value at startup.";
        }
        var why = Why(call, request, context.HasFlag(CallContext.TaskRun), context.HasFlag(CallContext.AsyncMethod) ? method : null);
        var change = Change(call);
        if (call.Kind == BlockingKind.Lock)
        {
            return $"{why} In {method ?? "the code holding the lock"}, {change}.";
        }
        if (call.Kind == BlockingKind.TaskRunOffload)
        {
            return $"{why} In {method ?? "the code"}, {change}.";
        }
        return $"{why} {Where(place, method, change, context)}";
    }

    private static string Why(BlockingCall call, string request, bool taskRun, string? asyncMethod) => call.Kind switch
    {
        BlockingKind.SyncDatabaseIO when taskRun => $"`Task.Run(() => ...{call.Frame.MethodName}())` still holds a pool thread for the whole database call; Task.Run only moves it.",
        _ when asyncMethod is not null && call.Kind is not (BlockingKind.SyncOverAsync or BlockingKind.Lock or BlockingKind.Unrecognised) =>
            $"{asyncMethod} is async but calls the synchronous {call.Name}, which holds the pool thread{request}.",
        BlockingKind.Sleep when taskRun => "`Task.Run(() => Thread.Sleep(...))` only moves the sleep to another pool thread, which it holds for the whole wait.",
        BlockingKind.Sleep => $"Thread.Sleep holds the pool thread for the whole wait{request}.",
        BlockingKind.SyncOverAsync => $"{Form(call)} blocks the pool thread until the task completes{request} (sync over async), and the task's own continuation needs another pool thread to finish.",
        BlockingKind.Lock => $"Pool threads queue on a contended lock{request}; each one waits for the holder to leave the critical section.",
        BlockingKind.SyncWait => $"{call.Name} blocks the pool thread until something signals it{request}.",
        BlockingKind.SyncDatabaseIO => $"{call.Name} is synchronous: the pool thread waits for the database{request}.",
        BlockingKind.SyncHttp => $"{call.Name} is a synchronous HTTP call: the pool thread waits for the server{request}.",
        BlockingKind.SyncSocketIO or BlockingKind.SyncStreamIO => $"{call.Name} is synchronous I/O{(call.On is { } on ? " on " + on : "")}: the pool thread waits for the data{request}.",
        BlockingKind.Parallel => $"{call.Name} holds the calling pool thread until every item is done{request}, and takes more pool threads for the items.",
        BlockingKind.TaskRunOffload => $"`await Task.Run(...)` hands work that does not block to another pool thread{request}: one pool thread is freed and another taken, so nothing is saved and a hop is paid (ASP.NET Core's guidance: do not call Task.Run and immediately await it).",
        _ => $"The pool thread waits in {call.Name}, a call tplab does not recognise{request}; read the stack: if it is a synchronous call, use its async form.",
    };

    /// <summary>The awaited replacement, in public API terms.</summary>
    private static string Change(BlockingCall call) => call.Kind switch
    {
        BlockingKind.Sleep => "`await Task.Delay(...)`",
        BlockingKind.SyncOverAsync => call.Name switch
        {
            "Task.WaitAll" => "`await Task.WhenAll(...)` instead of `Task.WaitAll`",
            "Task.WaitAny" => "`await Task.WhenAny(...)` instead of `Task.WaitAny`",
            _ => $"`await task` instead of {Form(call)}",
        },
        BlockingKind.Lock => "keep the critical section short and free of I/O; if it must wait for async work inside, use `await semaphore.WaitAsync()` (a SemaphoreSlim(1, 1)) instead of lock",
        BlockingKind.SyncWait when call.Name == "Log.CloseAndFlush" => "`await Log.CloseAndFlushAsync()`, once at shutdown rather than per request",
        BlockingKind.SyncWait when call.Name is "LogManager.Flush" or "LogFactory.Flush" =>
            "no flush per request (NLog writes on its own; flush once at shutdown), or `await LogManager.LogFactory.FlushAsync(token)` (NLog 5.5 and later)",
        BlockingKind.SyncDatabaseIO when call.Frame.MethodName == "RemoveRange" => "`await query.ExecuteDeleteAsync()` (EF Core 7 and later), or `RemoveRange(await query.ToListAsync())`",
        BlockingKind.SyncStreamIO when call.Frame.MethodName == "ComputeHash" => "`await hash.ComputeHashAsync(stream)`",
        BlockingKind.SyncStreamIO when IsFileChange(call) =>
            "a background queue for the change (a Channel read by a hosted service), or streams opened with `FileOptions.Asynchronous` and `await CopyToAsync` for a copy: deleting, moving or copying a file has no async form",
        BlockingKind.SyncStreamIO when IsListing(call) => "a cached listing (refreshed by a background service or a file watcher): the file system has no async listing",
        BlockingKind.SyncStreamIO when IsOpen(call) => "a file opened with `FileOptions.Asynchronous` (`useAsync: true`) and awaited reads and writes (opening itself has no async form)",
        BlockingKind.SyncWait when call.Name == "Process.WaitForExit" => "`await process.WaitForExitAsync()`",
        BlockingKind.SyncWait when call.Name == "SemaphoreSlim.Wait" => "`await semaphore.WaitAsync()`",
        BlockingKind.SyncWait => "an async signal instead (`await semaphore.WaitAsync()`, an awaited TaskCompletionSource, a Channel)",
        BlockingKind.SyncHttp => "`await client.SendAsync(...)` (or GetAsync/PostAsync)",
        BlockingKind.Parallel => "`await Parallel.ForEachAsync(...)` over the async calls, or `await Task.WhenAll(...)`; CPU-bound work that must stay parallel belongs off the request path",
        BlockingKind.TaskRunOffload => "call the work directly instead of through Task.Run",
        BlockingKind.SyncStreamIO when call.Name == "HttpRequest.Form" => "`await Request.ReadFormAsync()`",
        BlockingKind.SyncStreamIO when call.On == "the request body" =>
            call.Name.StartsWith("StreamReader", StringComparison.Ordinal) ? "`await reader.ReadToEndAsync()` (or read `Request.BodyReader`)" : "`await Request.Body.ReadAsync(...)` (or read `Request.BodyReader`)",
        BlockingKind.SyncStreamIO when call.On == "the response body" => "`await Response.Body.WriteAsync(...)` (or `await Response.WriteAsync(...)`)",
        BlockingKind.SyncStreamIO when call.Name.StartsWith("StreamReader read", StringComparison.Ordinal) => "`await reader.ReadToEndAsync()` / `ReadLineAsync()`",
        BlockingKind.SyncSocketIO when call.Frame.TypeName == "System.Net.Dns" => $"`await Dns.{call.Frame.MethodName}Async(...)`",
        _ when AsyncName(call) is { } name => $"`await ...{name}(...)`",
        _ => "the async API of the library that made it (see the stack)",
    };

    private static string Where(CodePlace place, string? method, string change, CallContext context)
    {
        var m = method ?? "the code";
        return place switch
        {
            CodePlace.MvcAction => $"Make the action {m} async (`async Task<IActionResult>`) and use {change}.",
            CodePlace.MinimalApi => method is null
                ? $"Make the endpoint's handler async (`async (...) => ...`) and use {change}."
                : $"Make {m} async, and the endpoint's handler with it, and use {change}.",
            CodePlace.Middleware => $"The middleware {m} runs on every request that passes it, so each one holds a pool thread: make it async all the way (`await next(context)`) and use {change}.",
            CodePlace.Filter => $"In the filter {m}, implement the async interface (IAsyncActionFilter, IAsyncResourceFilter, IAsyncAuthorizationFilter) and use {change}.",
            CodePlace.RazorPage => $"Use an async page handler (`OnGetAsync`/`OnPostAsync`) in {m} and use {change}.",
            CodePlace.Hub => $"Make the hub method {m} async (returning Task) and use {change}.",
            CodePlace.HostedService => $"{m} runs on pool threads once it has awaited: use {change}; a loop that must block belongs on its own thread (`Task.Factory.StartNew(..., TaskCreationOptions.LongRunning)`).",
            CodePlace.Timer => $"Timer callbacks run on pool threads: move {m} to a BackgroundService with `PeriodicTimer` and use {change}.",
            CodePlace.DiFactory => $"{m} is a service factory: it runs when the service is first resolved, and every other resolution waits on the container's lock meanwhile. Build the value at startup (in a hosted service's StartAsync, or register the instance) and use {change} there.",
            CodePlace.Grpc => $"Make the gRPC method {m} await all the way and use {change}.",
            CodePlace.ViewComponent => $"Use `InvokeAsync` in the view component {m} and use {change}.",
            CodePlace.HealthCheck => $"In the health check {m} (CheckHealthAsync is already async), use {change}.",
            CodePlace.DelegatingHandler => $"In the handler {m}, override SendAsync rather than Send and use {change}.",
            CodePlace.AuthorizationHandler => $"In the authorization handler {m} (HandleAsync is already async), use {change}.",
            CodePlace.RequestHandler => $"Make the handler {m} async all the way (its Handle returns a Task) and use {change}.",
            CodePlace.BlazorComponent => $"Use the async lifecycle methods (OnInitializedAsync, OnParametersSetAsync) in {m} and use {change}.",
            CodePlace.PoolCallback => $"{m} runs on a pool thread a library hands it: use {change}, or await the work instead of queueing it.",
            CodePlace.FrameworkCallback => $"The framework calls {m} while a request waits (it is set on an options object): use {change}.",
            _ when context.HasFlag(CallContext.TaskRun) => $"Drop the Task.Run and use {change} in {m}.",
            _ => $"In {m}, use {change}.",
        };
    }

    // Get*/Enumerate* of a directory, or the lazy listing's enumerator; a directory's Delete or Move is a change, not a listing.
    private static bool IsListing(BlockingCall call) =>
        call.Frame.TypeName == "System.IO.Enumeration.FileSystemEnumerator`1"
        || (call.Frame.TypeName is "System.IO.Directory" or "System.IO.DirectoryInfo"
            && (call.Frame.MethodName.StartsWith("Get", StringComparison.Ordinal) || call.Frame.MethodName.StartsWith("Enumerate", StringComparison.Ordinal)));

    // File.Delete has no DeleteAsync (nor Move, Copy or Replace an async sibling): naming one would send the team to an API that does not exist.
    private static bool IsFileChange(BlockingCall call) =>
        call.Frame.TypeName is "System.IO.File" or "System.IO.FileInfo" or "System.IO.Directory" or "System.IO.DirectoryInfo"
        && call.Frame.MethodName is "Delete" or "Move" or "MoveTo" or "Replace" or "Copy" or "CopyTo";

    private static bool IsOpen(BlockingCall call) =>
        (call.Frame.TypeName == "System.IO.FileStream" && call.Frame.MethodName == ".ctor")
        || (call.Frame.TypeName is "System.IO.File" or "System.IO.FileInfo" && (call.Frame.MethodName.StartsWith("Open", StringComparison.Ordinal)
            || call.Frame.MethodName.StartsWith("Create", StringComparison.Ordinal) || call.Frame.MethodName == "AppendText"));

    private static string Form(BlockingCall call) => call.Name switch
    {
        "Task.Result" => "`.Result`",
        "Task.Wait" => "`.Wait()`",
        "GetAwaiter().GetResult()" => "`.GetAwaiter().GetResult()`",
        _ => call.Name,
    };

    // NpgsqlCommand.ExecuteNonQuery → ExecuteNonQueryAsync; Dapper's Query → QueryAsync. Never for an internal type.
    private static string? AsyncName(BlockingCall call) =>
        call.Frame.TypeName.Contains(".Internal", StringComparison.Ordinal) || call.Frame.TypeName.Contains("AsyncContext", StringComparison.Ordinal)
        || call.Name.Contains(' ', StringComparison.Ordinal) || call.Frame.MethodName.Length == 0 || call.Frame.MethodName.StartsWith('<')
            ? null
            : call.Frame.MethodName + "Async";
}
