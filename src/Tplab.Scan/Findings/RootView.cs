using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>A blocking site as one entry point reaches it: the chain, why it is not an error, the fix, and whether a <c>tplab-ignore</c> on the way silences it.</summary>
internal sealed record RootView(EntryPoint Root, Severity Severity, IReadOnlyList<ChainHop> Chain, CallContext Context, IReadOnlyList<string> Reasons, string Advice, string? Suppression)
{
    /// <summary>How sure each interface or virtual hop of the chain is: <c>dispatch: IStore.Load to SqlStore.Load (registered in DI)</c>, or null.</summary>
    public string? Dispatch { get; init; }

    /// <summary>
    /// The code runs once per process, not per request, from this entry point: a singleton built on first use (its
    /// constructor, or its factory as an entry point). It ranks below what runs on every request at the same severity.
    /// </summary>
    public bool RunsOnce { get; init; }

    /// <summary>The severity of a site from an entry point, without building the chain: what <see cref="Of"/> would say.</summary>
    public static Severity SeverityOf(EntryPoint root, SiteFacts site, Step step) =>
        site.Call.Kind == BlockingKind.TaskRunOffload ? Severity.Note
        : step.Cost > 0 || site.Conditional || site.Uncertain is not null || PlaceReasons(root).Any() ? Severity.Warning
        : Severity.Error;

    /// <summary>The chain, reasons and fix of <paramref name="site"/> from <paramref name="walk"/>'s entry point.</summary>
    public static RootView Of(RootWalk walk, SiteFacts site)
    {
        var root = walk.Root;
        var path = walk.Path(site.In);
        var hops = new List<ChainHop>(path.Count);
        var dispatch = new List<string>();
        var reasons = new List<string>();
        var runsOnce = root.Place == CodePlace.DiFactory && root.Lifetime == "singleton";
        var context = site.Context;
        if (PlaceWords.IsRequestPath(root.Place))
        {
            context |= CallContext.RequestPath;
        }
        for (var i = 0; i < path.Count; i++)
        {
            var (node, into) = path[i];
            var at = i + 1 < path.Count ? path[i + 1].Into!.Site : site.Site;
            var (line, column) = CallPosition.Of(at);
            hops.Add(new ChainHop(node.FullName, node.DisplayName, node.RelativePath, line, column, Via(into)));
            if (into is null)
            {
                continue;
            }
            if (into.Kind is EdgeKind.TaskRun or EdgeKind.Continuation)
            {
                context |= CallContext.TaskRun;
            }
            if (into.Kind == EdgeKind.Injection && into.Conditional)
            {
                runsOnce = true;
                reasons.Add("the singleton is built once, on the first request that needs it (the requests that arrive meanwhile wait for it)");
            }
            else if (into.Conditional)
            {
                reasons.Add($"in a branch ({path[i - 1].Node.RelativePath}:{CallPosition.Of(into.Site).Line})");
            }
            if (RootWalk.Uncertain(into))
            {
                reasons.Add($"through one of {into.Alternatives} implementations of {into.Via}{(into.Basis is null ? ", a guess" : "")}");
            }
            if (into.Kind == EdgeKind.Implementation)
            {
                dispatch.Add($"{into.Via} to {(into.Alternatives > 1 ? $"one of {into.Alternatives}, " : "")}{node.ShortName} ({Sureness(into)})");
            }
        }
        if (site.Conditional)
        {
            reasons.Add($"in a branch ({site.In.RelativePath}:{CallPosition.Of(site.Site).Line})");
        }
        if (site.Uncertain is not null)
        {
            reasons.Add(site.Uncertain);
        }
        reasons.AddRange(PlaceReasons(root));
        var severity = site.Call.Kind == BlockingKind.TaskRunOffload ? Severity.Note : reasons.Count > 0 ? Severity.Warning : Severity.Error;
        var method = site.AdviceMethod ?? site.In.ShortName;
        var advice = AlreadyAsync(root)
            // "Make the action async" to an action that already is would send the team to the wrong method: the fix is
            // where the blocking call is, and the synchronous methods between it and the entry point. When every one of
            // them already returns a task (an async chain down to one synchronous member), the call alone is the fix.
            ? BlockingAdvice.For(site.Call, CodePlace.Unknown, context, method)
                + (path.Skip(1).Any(p => p.Node.Symbol is { } s && !ReturnsTask(s)) ? $" {root.Node.ShortName} is already async: make the methods between it and {method} async with it." : "")
            : BlockingAdvice.For(site.Call, root.Place, context, method, root.Node.ShortName);
        return new RootView(root, severity, hops, context, reasons, advice, InlineIgnore.Find(path, site.Site))
        {
            Dispatch = dispatch.Count > 0 ? "dispatch: " + string.Join("; ", dispatch) : null,
            RunsOnce = runsOnce,
        };
    }

    // An entry point whose own method already returns a task (an async action, handler or hub method): the place's
    // usual advice, to make it async, would not apply. Places whose advice is about their kind (a filter's interface,
    // a factory, a timer) keep it.
    private static bool AlreadyAsync(EntryPoint root) =>
        root.Place is CodePlace.MvcAction or CodePlace.MinimalApi or CodePlace.Hub or CodePlace.RazorPage && ReturnsTask(root.Node.Symbol);

    private static bool ReturnsTask(IMethodSymbol method) => method.IsAsync || method.ReturnType.Name is "Task" or "ValueTask";

    private static IEnumerable<string> PlaceReasons(EntryPoint root) => root.Place switch
    {
        CodePlace.HostedService => ["runs in a hosted service, not while a request waits"],
        CodePlace.Timer => ["runs on a timer, not while a request waits"],
        CodePlace.PoolCallback => ["runs on a pool thread a library hands it (a queued work item, a new connection), not in a request's own code"],
        CodePlace.DiFactory when root.Lifetime == "singleton" => ["runs once, when the singleton is first resolved (requests that need it meanwhile wait)"],
        CodePlace.DiFactory => [$"runs each time the {root.Lifetime} service is resolved"],
        _ => [],
    };

    // How sure a dispatch hop is: what narrowed it, or that it is a guess among every implementation in the solution.
    private static string Sureness(Edge e) =>
        e.Basis ?? (e.Alternatives > 1 ? "a guess: every implementation in the solution" : "the only implementation in the solution");

    private static string? Via(Edge? edge) => edge switch
    {
        null => null,
        { Kind: EdgeKind.TaskRun } => "Task.Run body",
        { Kind: EdgeKind.Continuation } => "ContinueWith continuation",
        { Kind: EdgeKind.Implementation, Alternatives: > 1 } e => $"one of {e.Alternatives} implementations of {e.Via} ({Sureness(e)})",
        { Kind: EdgeKind.Implementation } e => $"implementation of {e.Via}{(e.Basis is null ? "" : $" ({e.Basis})")}",
        { Kind: EdgeKind.Callback } => "callback",
        { Kind: EdgeKind.Injection } e => "resolved from DI: " + e.Via,
        _ => null,
    };
}
