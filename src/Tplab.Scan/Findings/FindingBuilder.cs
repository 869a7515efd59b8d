using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Findings;

/// <summary>
/// Walks the call graph from one entry point and turns every blocking call it reaches into a finding with the chain
/// that reaches it. The chain chosen is the surest one: fewest branches and "one of several implementations" first,
/// then the shortest. Cycles end the walk; so does the depth limit.
/// </summary>
internal sealed class FindingBuilder(CallGraph graph, LockAnalysis locks, RootSet roots, int maxDepth)
{
    private static readonly StackFrame MonitorEnter = new("System.Private.CoreLib", "System.Threading.Monitor", "Enter");

    public IEnumerable<Finding> For(EntryPoint root)
    {
        var best = new Dictionary<CodeNode, Step>();
        var deque = new LinkedList<CodeNode>();
        best[root.Node] = new Step(0, 0, null, null);
        deque.AddFirst(root.Node);
        var order = new List<CodeNode>();
        var done = new HashSet<CodeNode>();
        while (deque.Count > 0)
        {
            var node = deque.First!.Value;
            deque.RemoveFirst();
            if (!done.Add(node))
            {
                continue;
            }
            order.Add(node);
            var step = best[node];
            if (step.Depth >= maxDepth)
            {
                continue;
            }
            var edges = node == root.Node ? graph.Facts(node).Edges.Concat(Injections(root)) : graph.Facts(node).Edges;
            foreach (var edge in edges)
            {
                var cost = step.Cost + (edge.Conditional || edge.Alternatives > 1 ? 1 : 0);
                if (best.TryGetValue(edge.Target, out var known) && (known.Cost < cost || (known.Cost == cost && known.Depth <= step.Depth + 1)))
                {
                    continue;
                }
                best[edge.Target] = new Step(cost, step.Depth + 1, node, edge);
                if (cost == step.Cost)
                {
                    deque.AddFirst(edge.Target);
                }
                else
                {
                    deque.AddLast(edge.Target);
                }
            }
        }
        foreach (var node in order)
        {
            var facts = graph.Facts(node);
            var path = Path(best, node);
            foreach (var site in facts.Blocking)
            {
                yield return Make(root, path, site.Call, site.Site, site.Conditional, site.Certainty == Certainty.Uncertain ? site.Why : null, site.Context, node);
            }
            // Contention holds requests' threads: judged on the request path; a background holder's own lock is its blocking call's finding.
            foreach (var site in PlaceWords.IsRequestPath(root.Place) ? facts.Locks : [])
            {
                if (locks.SlowHolders(site.Key) is { Count: > 0 } holders)
                {
                    var holder = holders.FirstOrDefault(h => h.Lock.Id == site.Id) ?? holders[0];
                    var where = holder.Slow.Site.GetLineSpan();
                    var call = new BlockingCall(BlockingKind.Lock, "lock (Monitor.Enter)", MonitorEnter) { On = site.Description };
                    var why = holder.Lock.Id == site.Id
                        ? $"this lock is held around {holder.Slow.Call.Name} ({holder.SlowIn.RelativePath}:{where.StartLinePosition.Line + 1}): requests queue behind the one inside"
                        : $"{holder.Node.ShortName} holds the same lock around {holder.Slow.Call.Name} ({holder.SlowIn.RelativePath}:{where.StartLinePosition.Line + 1}): requests queue behind it";
                    yield return Make(root, path, call, site.Site, site.Conditional, why, CallContext.None, node, adviceMethod: holder.SlowIn.ShortName);
                }
            }
            foreach (var edge in facts.Edges.Where(e => e.Kind == EdgeKind.TaskRun && e.Awaited && !graph.ReachesBlocking(e.Target)))
            {
                if (PlaceWords.IsRequestPath(root.Place))
                {
                    var call = new BlockingCall(BlockingKind.TaskRunOffload, "Task.Run", new StackFrame("System.Private.CoreLib", "System.Threading.Tasks.Task", "Run"));
                    yield return Make(root, path, call, edge.Site, edge.Conditional, null, CallContext.TaskRun, node);
                }
            }
        }
    }

    // Asking for a service runs its factory: every time for a scoped or transient one, the first time for a singleton.
    private IEnumerable<Edge> Injections(EntryPoint root) =>
        roots.Injected(root).Where(i => i.Factory.Node != root.Node).Select(i => new Edge(
            i.Factory.Node,
            i.Parameter.Locations.FirstOrDefault(l => l.IsInSource) ?? root.Node.Syntax.GetLocation(),
            EdgeKind.Injection,
            Conditional: i.Factory.Lifetime == "singleton",
            Via: $"{i.Factory.Lifetime} factory of {i.Parameter.Type.Name}"));

    private Finding Make(EntryPoint root, IReadOnlyList<(CodeNode Node, Edge? Into)> path, BlockingCall call, Location site, bool conditional, string? uncertain,
        CallContext siteContext, CodeNode inNode, string? adviceMethod = null)
    {
        var hops = new List<ChainHop>();
        var reasons = new List<string>();
        var context = siteContext;
        if (PlaceWords.IsRequestPath(root.Place))
        {
            context |= CallContext.RequestPath;
        }
        for (var i = 0; i < path.Count; i++)
        {
            var (node, into) = path[i];
            var at = i + 1 < path.Count ? path[i + 1].Into!.Site : site;
            var line = at.GetLineSpan().StartLinePosition;
            hops.Add(new ChainHop(node.FullName, node.DisplayName, node.RelativePath, line.Line + 1, line.Character + 1, Via(into)));
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
                reasons.Add("the singleton's factory runs once, on the first request that needs it (the requests that arrive meanwhile wait for it)");
            }
            else if (into.Conditional)
            {
                reasons.Add($"in a branch ({Where(path[i - 1].Node, into.Site)})");
            }
            if (into.Alternatives > 1)
            {
                reasons.Add($"through one of {into.Alternatives} implementations of {into.Via}");
            }
        }
        if (conditional)
        {
            reasons.Add($"in a branch ({Where(inNode, site)})");
        }
        if (uncertain is not null)
        {
            reasons.Add(uncertain);
        }
        reasons.AddRange(PlaceReasons(root));
        var severity = call.Kind == BlockingKind.TaskRunOffload ? Severity.Note : reasons.Count > 0 ? Severity.Warning : Severity.Error;
        var method = adviceMethod ?? inNode.ShortName;
        var advice = BlockingAdvice.For(call, root.Place, context, method, root.Node.ShortName);
        return new Finding(root, call, severity, hops, context, reasons, advice) { Suppression = InlineIgnore.Find(path, site) };
    }

    private static IEnumerable<string> PlaceReasons(EntryPoint root) => root.Place switch
    {
        CodePlace.HostedService => ["runs in a hosted service, not while a request waits"],
        CodePlace.Timer => ["runs on a timer, not while a request waits"],
        CodePlace.DiFactory when root.Lifetime == "singleton" => ["runs once, when the singleton is first resolved (requests that need it meanwhile wait)"],
        CodePlace.DiFactory => [$"runs each time the {root.Lifetime} service is resolved"],
        _ => [],
    };

    private static string? Via(Edge? edge) => edge switch
    {
        null => null,
        { Kind: EdgeKind.TaskRun } => "Task.Run body",
        { Kind: EdgeKind.Continuation } => "ContinueWith continuation",
        { Kind: EdgeKind.Implementation, Alternatives: > 1 } e => $"one of {e.Alternatives} implementations of {e.Via}",
        { Kind: EdgeKind.Implementation } e => $"implementation of {e.Via}",
        { Kind: EdgeKind.Callback } => "callback",
        { Kind: EdgeKind.Injection } e => "resolved from DI: " + e.Via,
        _ => null,
    };

    private static string Where(CodeNode node, Location site) =>
        $"{node.RelativePath}:{site.GetLineSpan().StartLinePosition.Line + 1}";

    private static List<(CodeNode Node, Edge? Into)> Path(Dictionary<CodeNode, Step> best, CodeNode node)
    {
        var path = new List<(CodeNode, Edge?)>();
        for (CodeNode? n = node; n is not null; n = best[n].From)
        {
            path.Add((n, best[n].Into));
        }
        path.Reverse();
        return path;
    }

    private sealed record Step(int Cost, int Depth, CodeNode? From, Edge? Into);
}
