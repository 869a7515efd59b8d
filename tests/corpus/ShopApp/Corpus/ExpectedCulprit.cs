namespace ShopApp.Corpus;

/// <summary>
/// What a correct diagnosis of one endpoint says when many users call it at once. Each feature keeps its own
/// expectations next to its code; tplab's corpus test (tests/Tplab.Tests/Corpus) reads them. The app never
/// looks at them.
/// </summary>
/// <param name="Case">Short name of the case.</param>
/// <param name="Method">HTTP method the load sends.</param>
/// <param name="Path">The path the load sends.</param>
/// <param name="Route">The route template ASP.NET Core matched (MVC's without a leading slash).</param>
/// <param name="Illness">What is wrong: blocking, healthy or cpu-bound.</param>
/// <param name="UserMethod">Blocking: the innermost application method that makes the blocking call;
/// cpu-bound: the hot method; healthy: null. Type and method, namespace after <c>ShopApp.</c>.</param>
/// <param name="BlockingCall">The blocking call as users write it (diagnose's catalogue name); null when not blocking.</param>
/// <param name="Where">Where the culprit runs.</param>
/// <param name="Pool">Watch's verdict on the thread pool under that load (healthy, starving, lock-contention,
/// cpu-saturated); "starving" is also met by "recovering": starved, then caught up by the runtime's injections; null
/// when the pool's state depends on the machine rather than on the code (said next to the case).</param>
/// <param name="NeedsDatabase">The case needs PostgreSQL (connection string in <c>ConnectionStrings:Shop</c>).</param>
public sealed record ExpectedCulprit(
    string Case,
    string Method,
    string Path,
    string Route,
    Illness Illness,
    string? UserMethod,
    string? BlockingCall,
    Place Where,
    string? Pool,
    bool NeedsDatabase = false)
{
    /// <summary>
    /// A second blocking call the same method makes, also right as the top culprit: which of the two holds more threads
    /// depends on the machine (said next to the case). Null when the method makes one.
    /// </summary>
    public string? OtherBlockingCall { get; init; }

    /// <summary>
    /// Blocking: the chain from the root (handler, action, middleware, filter, factory, timer callback, hosted service)
    /// down to the blocking call, outermost first, each hop as diagnose names it, with the line of its call to the next
    /// hop (the last hop: of the blocking call). Empty when not declared.
    /// </summary>
    public IReadOnlyList<ExpectedHop> Chain { get; init; } = [];

    /// <summary>Blocking: how the code runs when not in the request's own path: "continuation" (after an await) or "task-run"; null otherwise.</summary>
    public string? RunsIn { get; init; }

    /// <summary>A dependency-injection factory's service (the type's name); null otherwise.</summary>
    public string? Service { get; init; }

    public static ExpectedCulprit Blocking(string @case, string method, string path, string route, string userMethod, string blockingCall, Place where, string? pool = "starving") =>
        new(@case, method, path, route, Illness.Blocking, userMethod, blockingCall, where, pool);

    public static ExpectedCulprit Healthy(string @case, string method, string path, string route, Place where) =>
        new(@case, method, path, route, Illness.Healthy, null, null, where, "healthy");

    public static ExpectedCulprit CpuBound(string @case, string method, string path, string route, string hotMethod, Place where) =>
        new(@case, method, path, route, Illness.CpuBound, hotMethod, null, where, "cpu-saturated");
}

/// <summary>
/// One hop of an expected chain: the method as diagnose names it (<c>PricingService.Quote</c>, <c>GET /api/prices/{sku} handler</c>,
/// <c>FxEndpoints.AddFx (lambda)</c>), its file relative to the shop's folder, and a piece of text found on exactly one
/// line of that file: the line of the call to the next hop (so edits elsewhere in the file do not break it).
/// </summary>
public sealed record ExpectedHop(string Method, string File, string Line)
{
    /// <summary>Another line that is also right: a method that makes two blocking calls, either of which may hold more threads.</summary>
    public string? OrLine { get; init; }
}

/// <summary>What is wrong with an endpoint.</summary>
public enum Illness
{
    Blocking,
    Healthy,
    CpuBound,
}

/// <summary>Where the culprit's code runs.</summary>
public enum Place
{
    MinimalApi,
    MvcAction,
    RazorPage,
    Middleware,
    Filter,
    BackgroundService,
    DiFactory,
    Timer,
}
