using Microsoft.CodeAnalysis;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>How a walk reached a node: the cost of its surest path (branches and "one of several" hops), its calls, and the step before.</summary>
internal readonly record struct Step(int Cost, int Depth, CodeNode? From, Edge? Into);

/// <summary>
/// The walk from one entry point over the call graph: for every node reached, the surest path there (fewest branches
/// and "one of several implementations" first, then the shortest), as back-pointers. A chain is materialised only
/// when asked (<see cref="Path"/>). Cycles end the walk; so does the depth limit.
/// </summary>
internal sealed class RootWalk
{
    private readonly Dictionary<CodeNode, Step> _best = [];

    private RootWalk(EntryPoint root) => Root = root;

    public EntryPoint Root { get; }

    /// <summary>The nodes reached, surest first.</summary>
    public List<CodeNode> Order { get; } = [];

    public Step this[CodeNode node] => _best[node];

    public static RootWalk From(EntryPoint root, CallGraph graph, RootSet roots, int maxDepth)
    {
        var walk = new RootWalk(root);
        var best = walk._best;
        var deque = new LinkedList<CodeNode>();
        best[root.Node] = new Step(0, 0, null, null);
        deque.AddFirst(root.Node);
        var done = new HashSet<CodeNode>();
        while (deque.Count > 0)
        {
            var node = deque.First!.Value;
            deque.RemoveFirst();
            if (!done.Add(node))
            {
                continue;
            }
            walk.Order.Add(node);
            var step = best[node];
            if (step.Depth >= maxDepth)
            {
                continue;
            }
            var edges = node == root.Node ? graph.Facts(node).Edges.Concat(Injections(root, roots)).Concat(Resolutions.Of(root, graph.Index))
                : step.Into is { Kind: EdgeKind.Injection } && node.Symbol.MethodKind == MethodKind.Constructor
                    ? graph.Facts(node).Edges.Concat(Resolutions.Constructors(graph.Index, node.Symbol.Parameters, node.Syntax.GetLocation()))
                    : graph.Facts(node).Edges;
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
        return walk;
    }

    /// <summary>The chain from the entry point to <paramref name="node"/>: each node with the edge that entered it.</summary>
    public List<(CodeNode Node, Edge? Into)> Path(CodeNode node)
    {
        var path = new List<(CodeNode, Edge?)>();
        for (CodeNode? n = node; n is not null; n = _best[n].From)
        {
            path.Add((n, _best[n].Into));
        }
        path.Reverse();
        return path;
    }

    /// <summary>The call sites of the edges on the path to <paramref name="node"/>, without building it.</summary>
    public IEnumerable<Location> EdgeSites(CodeNode node)
    {
        for (CodeNode? n = node; n is not null; n = _best[n].From)
        {
            if (_best[n].Into is { } into)
            {
                yield return into.Site;
            }
        }
    }

    // Asking for a service runs its factory: every time for a scoped or transient one, the first time for a singleton.
    private static IEnumerable<Edge> Injections(EntryPoint root, RootSet roots) =>
        roots.Injected(root).Where(i => i.Factory.Node != root.Node).Select(i => new Edge(
            i.Factory.Node,
            i.Parameter.Locations.FirstOrDefault(l => l.IsInSource) ?? root.Node.Syntax.GetLocation(),
            EdgeKind.Injection,
            Conditional: i.Factory.Lifetime == "singleton",
            Via: $"{i.Factory.Lifetime} factory of {i.Parameter.Type.Name}"));
}
