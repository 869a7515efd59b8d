using Tplab.Common.Json;

namespace Tplab.Blocking;

/// <summary>Where the blocking call runs, read from the frames below the user frame; shapes the advice.</summary>
[Flags]
public enum CallContext
{
    /// <summary>Nothing recognised below the user frame.</summary>
    None = 0,

    /// <summary>ASP.NET Core frames below: the call runs while a request waits for it.</summary>
    RequestPath = 1,

    /// <summary>The user frame is a lambda run by <c>Task.Run</c>/<c>StartNew</c>: it still runs on a pool thread.</summary>
    TaskRun = 2,

    /// <summary>The user frame is an async method's state machine: the method is async but calls a blocking API.</summary>
    AsyncMethod = 4,

    /// <summary>The code runs as a continuation (<c>ContinueWith</c>, code after an <c>await</c>) of work started by a request.</summary>
    Continuation = 8,
}

/// <summary>The kind of code the blocking call runs in, as a developer would name the place.</summary>
public enum CodePlace
{
    /// <summary>Nothing recognisable below the application code (a continuation, a Task.Run body, a thread of its own).</summary>
    Unknown,

    /// <summary>An MVC controller action (below it: MVC's action method executor).</summary>
    MvcAction,

    /// <summary>A minimal API endpoint (below it: the endpoint's compiled request delegate).</summary>
    MinimalApi,

    /// <summary>A middleware: application code called by the request pipeline, outside any endpoint.</summary>
    Middleware,

    /// <summary>An MVC filter: called by MVC's invoker, not by its action executor.</summary>
    Filter,

    /// <summary>A Razor Page handler.</summary>
    RazorPage,

    /// <summary>A SignalR hub method.</summary>
    Hub,

    /// <summary>A hosted or background service (<c>ExecuteAsync</c>, <c>Microsoft.Extensions.Hosting</c> below).</summary>
    HostedService,

    /// <summary>A timer callback (<c>System.Threading.Timer</c> fired it on a pool thread).</summary>
    Timer,

    /// <summary>A dependency-injection factory (<c>AddSingleton(sp => ...)</c>): runs when the service is first resolved, while other resolutions wait.</summary>
    DiFactory,

    /// <summary>A gRPC service method.</summary>
    Grpc,

    /// <summary>An MVC view component's <c>Invoke</c>/<c>InvokeAsync</c>.</summary>
    ViewComponent,

    /// <summary>A <c>DelegatingHandler</c> of one of the app's HttpClients: runs inside every call through that client.</summary>
    DelegatingHandler,

    /// <summary>A health check (<c>IHealthCheck.CheckHealthAsync</c>).</summary>
    HealthCheck,

    /// <summary>An authorization handler (<c>IAuthorizationHandler</c>): runs before the endpoint on every request it guards.</summary>
    AuthorizationHandler,

    /// <summary>A MediatR-style request handler (<c>IRequestHandler&lt;,&gt;.Handle</c>) resolved through DI.</summary>
    RequestHandler,

    /// <summary>A Blazor Server component (lifecycle methods and event handlers run on the circuit's pool threads).</summary>
    BlazorComponent,

    /// <summary>A callback a library runs on a pool thread: a <c>ThreadPool.QueueUserWorkItem</c> work item, a <c>SocketsHttpHandler.ConnectCallback</c> (each new connection, after the pool yields).</summary>
    PoolCallback,

    /// <summary>
    /// The app's own type set on a framework options object (<c>CookieAuthenticationOptions.SessionStore</c>): the
    /// framework calls its members while requests wait (the cookie handler, on each request it authenticates).
    /// </summary>
    FrameworkCallback,
}

/// <summary>
/// The words for places and blocking kinds, shared by every command that names them (diagnose and scan), so the same
/// code gets the same words in text, JSON and SARIF.
/// </summary>
public static class PlaceWords
{
    /// <summary><c>mvc-action</c>, <c>minimal-api</c>, ... for JSON: the enum's word, as every tplab enum is written (<see cref="Words"/>).</summary>
    public static string Id(CodePlace place) => Words.Of(place);

    /// <summary>The place in words, for the text report.</summary>
    public static string Text(CodePlace place) => place switch
    {
        CodePlace.MvcAction => "MVC action",
        CodePlace.MinimalApi => "minimal API endpoint",
        CodePlace.Middleware => "middleware",
        CodePlace.Filter => "MVC filter",
        CodePlace.RazorPage => "Razor Page",
        CodePlace.Hub => "SignalR hub",
        CodePlace.HostedService => "hosted service",
        CodePlace.Timer => "timer callback",
        CodePlace.DiFactory => "dependency-injection factory",
        CodePlace.Grpc => "gRPC service method",
        CodePlace.ViewComponent => "view component",
        CodePlace.DelegatingHandler => "HttpClient delegating handler",
        CodePlace.HealthCheck => "health check",
        CodePlace.AuthorizationHandler => "authorization handler",
        CodePlace.RequestHandler => "request handler (mediator)",
        CodePlace.BlazorComponent => "Blazor component",
        CodePlace.PoolCallback => "pool-thread callback",
        CodePlace.FrameworkCallback => "framework callback",
        _ => "unknown place",
    };

    /// <summary>Every place, in declaration order (for docs and schema checks).</summary>
    public static IReadOnlyList<CodePlace> All { get; } = Enum.GetValues<CodePlace>();

    /// <summary>True for the places that run while an HTTP request (or a hub or gRPC call) waits.</summary>
    public static bool IsRequestPath(CodePlace place) =>
        place is not (CodePlace.Unknown or CodePlace.HostedService or CodePlace.Timer or CodePlace.DiFactory or CodePlace.PoolCallback);

    /// <summary><c>request-path</c>, <c>task-run</c>, <c>async-method</c>, <c>continuation</c>: the context flags for JSON, in declaration order.</summary>
    public static string[] ContextIds(CallContext context) =>
        [.. Enum.GetValues<CallContext>().Where(flag => flag != CallContext.None && context.HasFlag(flag)).Select(ContextId)];

    /// <summary>One context flag's word: <c>TaskRun</c> is <c>task-run</c>.</summary>
    public static string ContextId(CallContext flag) => Words.Of(flag);

    /// <summary><c>sleep</c>, <c>sync-over-async</c>, ... for JSON.</summary>
    public static string KindId(BlockingKind kind) => kind switch
    {
        // Two words say more than the enum's name: a wait tplab does not recognise, and work moved onto another pool thread.
        BlockingKind.Unrecognised => "unrecognised-wait",
        BlockingKind.TaskRunOffload => "task-run",
        _ => Words.Of(kind),
    };
}
