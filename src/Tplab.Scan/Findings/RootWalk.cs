using Microsoft.CodeAnalysis;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Findings;

/// <summary>How a walk reached a node: the cost of its surest path (branches and "one of several" hops), its calls, and the step before.</summary>
internal readonly record struct Step(int Cost, int Depth, CodeNode? From, Edge? Into)
{
    /// <summary>The type arguments the node before ran with (the step before is <c>(From, FromTypes)</c>).</summary>
    public Instantiation? FromTypes { get; init; }
}

/// <summary>A node as a walk reaches it: with the type arguments it runs with when it is generic (null: not known).</summary>
internal readonly record struct WalkState(CodeNode Node, Instantiation? Types);

/// <summary>
/// The walk from one entry point over the call graph: for every node reached, the surest path there (fewest branches
/// and "one of several implementations" first, then the shortest), as back-pointers. A chain is materialised only
/// when asked (<see cref="Path"/>). Cycles end the walk; so does the depth limit. A generic method reached with known
/// type arguments is walked once per instantiation, so that an interface call on its type parameter follows only the
/// implementations for those arguments; a node's first (surest) state is the one reported.
/// </summary>
internal sealed class RootWalk
{
    private readonly Dictionary<WalkState, Step> _best = [];
    private readonly Dictionary<CodeNode, WalkState> _first = [];

    private RootWalk(EntryPoint root) => Root = root;

    public EntryPoint Root { get; }

    /// <summary>The walk stopped at the depth bound where the code went on calling (the chain there is cut).</summary>
    public bool ReachedMaxDepth { get; private set; }

    /// <summary>The nodes reached, surest first.</summary>
    public List<CodeNode> Order { get; } = [];

    public Step this[CodeNode node] => _best[_first[node]];

    /// <summary>
    /// Whether an edge may not be taken on a given call: one of several implementations, unless DI's registrations pick
    /// one when the app starts (then every call of that deployment takes it).
    /// </summary>
    public static bool Uncertain(Edge edge) => edge.Alternatives > 1 && !DispatchTargets.ChosenAtStartup(edge.Basis);

    public static RootWalk From(EntryPoint root, CallGraph graph, RootSet roots, int maxDepth)
    {
        var walk = new RootWalk(root);
        var best = walk._best;
        var deque = new LinkedList<WalkState>();
        var start = new WalkState(root.Node, Instantiation.Root(root.Node, ThisOf(root, graph.Index), graph));
        best[start] = new Step(0, 0, null, null);
        deque.AddFirst(start);
        var done = new HashSet<WalkState>();
        while (deque.Count > 0)
        {
            var state = deque.First!.Value;
            deque.RemoveFirst();
            if (!done.Add(state))
            {
                continue;
            }
            var node = state.Node;
            if (walk._first.TryAdd(node, state))
            {
                walk.Order.Add(node);
            }
            var step = best[state];
            if (step.Depth >= maxDepth)
            {
                walk.ReachedMaxDepth |= graph.Facts(node).Edges.Count > 0;
                continue;
            }
            var edges = node == root.Node ? graph.Facts(node).Edges.Concat(Injections(root, roots)).Concat(Resolutions.Of(root, graph.Index))
                : step.Into is { Kind: EdgeKind.Injection } && node.Symbol.MethodKind == MethodKind.Constructor
                    ? graph.Facts(node).Edges.Concat(Resolutions.Constructors(graph.Index, node.Symbol.Parameters, node.Syntax.GetLocation()))
                    : graph.Facts(node).Edges;
            foreach (var edge in state.Types is null ? edges : Narrowed(edges, state.Types))
            {
                var cost = step.Cost + (edge.Conditional || Uncertain(edge) ? 1 : 0);
                var next = new WalkState(edge.Target, Instantiation.Across(state.Types, edge, graph));
                if (best.TryGetValue(next, out var known) && (known.Cost < cost || (known.Cost == cost && known.Depth <= step.Depth + 1)))
                {
                    continue;
                }
                best[next] = new Step(cost, step.Depth + 1, node, edge) { FromTypes = state.Types };
                if (cost == step.Cost)
                {
                    deque.AddFirst(next);
                }
                else
                {
                    deque.AddLast(next);
                }
            }
        }
        return walk;
    }

    /// <summary>
    /// The concrete type of <c>this</c> when the entry point runs: the one place an entry point's concrete type is read.
    /// An MVC action runs on exactly its concrete controller (MVC creates that type, and an inherited action is an entry
    /// point per controller); otherwise the method's own type when nothing in the solution derives from it (it is then
    /// exactly that type); null (not known) for an abstract type, a type with subclasses, or a static method.
    /// </summary>
    public static INamedTypeSymbol? ThisOf(EntryPoint root, SourceIndex index) =>
        root.Node.Symbol.IsStatic ? null : root.Controller ?? Instantiation.Exact(root.Node.Symbol.ContainingType, index);

    /// <summary>The chain from the entry point to <paramref name="node"/>: each node with the edge that entered it.</summary>
    public List<(CodeNode Node, Edge? Into)> Path(CodeNode node)
    {
        var path = new List<(CodeNode, Edge?)>();
        foreach (var (state, step) in Back(node))
        {
            path.Add((state.Node, step.Into));
        }
        path.Reverse();
        return path;
    }

    /// <summary>
    /// The methods on the path to <paramref name="node"/>, each once, and whether a singleton built on first use is on
    /// it (the code then runs once per process from this entry point, not per request).
    /// </summary>
    public (List<CodeNode> Nodes, bool RunsOnce) Way(CodeNode node)
    {
        var nodes = new List<CodeNode>();
        var once = false;
        foreach (var (state, step) in Back(node))
        {
            if (!nodes.Contains(state.Node))
            {
                nodes.Add(state.Node);
            }
            once |= step.Into is { Kind: EdgeKind.Injection, Conditional: true };
        }
        return (nodes, once);
    }

    /// <summary>The call sites of the edges on the path to <paramref name="node"/>, without building it.</summary>
    public IEnumerable<Location> EdgeSites(CodeNode node) =>
        Back(node).Where(s => s.Step.Into is not null).Select(s => s.Step.Into!.Site);

    // The states from the node's reported one back to the entry point.
    private IEnumerable<(WalkState State, Step Step)> Back(CodeNode node)
    {
        for (WalkState? s = _first[node]; s is { } state; )
        {
            var step = _best[state];
            yield return (state, step);
            s = step.From is { } from ? new WalkState(from, step.FromTypes) : null;
        }
    }

    // A body walked with known types: each call on a receiver typed by its type parameters keeps the implementations
    // that fit, each virtual call on this the override the concrete type runs.
    private static IEnumerable<Edge> Narrowed(IEnumerable<Edge> edges, Instantiation types)
    {
        var list = edges as IReadOnlyList<Edge> ?? [.. edges];
        for (var i = 0; i < list.Count; i++)
        {
            if (list[i].GenericReceiver is null && list[i].VirtualOnThis is null && list[i].OnTypeParameter is null)
            {
                yield return list[i];
                continue;
            }
            // The edges of one call are recorded together: same site, same receiver.
            var j = i;
            while (j + 1 < list.Count && list[j + 1].Site == list[i].Site && ReferenceEquals(list[j + 1].GenericReceiver, list[i].GenericReceiver)
                && ReferenceEquals(list[j + 1].VirtualOnThis, list[i].VirtualOnThis) && ReferenceEquals(list[j + 1].OnTypeParameter, list[i].OnTypeParameter))
            {
                j++;
            }
            IReadOnlyList<Edge> call = [.. list.Skip(i).Take(j - i + 1)];
            call = call[0].GenericReceiver is null ? call : types.Narrow(call) ?? call;
            call = call.Count == 0 || call[0].VirtualOnThis is null ? call : types.NarrowThis(call) ?? call;
            call = call.Count == 0 || call[0].OnTypeParameter is null ? call : types.NarrowTypeParameter(call) ?? call;
            foreach (var edge in call)
            {
                yield return edge;
            }
            i = j;
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
