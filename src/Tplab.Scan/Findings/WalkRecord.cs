using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Findings;

/// <summary>One entry point's reach of a site, by keys (<see cref="WalkKeys"/>): the site, the numbers, the methods on its way there (the site's method first).</summary>
internal sealed record WalkHit(string Site, SiteHit Hit, IReadOnlyList<string> Way);

/// <summary>
/// What one entry point's walk gave, by keys: the methods it followed, whether it stopped at the depth bound, the sites
/// it reached, and what it depends on (<see cref="Depends"/>). The scan cache keeps one per entry point; an incremental
/// scan re-walks an entry point only when an edit touched what it depends on, and takes the others' records as they are.
/// </summary>
/// <param name="Order">The methods followed (their keys).</param>
/// <param name="Unknown">Per method followed that has any: the places of the calls source could not resolve in it.</param>
/// <param name="Depends">
/// The files of every method the walk could read again, following every call from the methods it followed without a
/// bound (a walk's judgement of one depends on what its callees do), and what their facts were read from beyond their
/// bodies (<see cref="FactDependencies"/>): an edit to none of these leaves the walk as it was.
/// </param>
internal sealed record WalkRecord(IReadOnlyList<string> Order, bool Cut, IReadOnlyList<WalkHit> Hits, IReadOnlyDictionary<string, IReadOnlyList<string>> Unknown, IReadOnlyList<string> Depends)
{
    /// <summary>The record of <paramref name="walk"/>, with its hits.</summary>
    public static WalkRecord Of(RootWalk walk, IReadOnlyList<WalkHit> hits, CallGraph graph)
    {
        var index = graph.Index;
        var unknown = new Dictionary<string, IReadOnlyList<string>>(StringComparer.Ordinal);
        var order = new List<string>(walk.Order.Count);
        foreach (var node in walk.Order)
        {
            var key = WalkKeys.Node(node, index);
            order.Add(key);
            if (graph.Facts(node).Unknown is { Count: > 0 } calls)
            {
                unknown[key] = [.. calls.Select(l => WalkKeys.Place(l, index)).Distinct()];
            }
        }
        return new WalkRecord(order, walk.ReachedMaxDepth, hits, unknown, Closure(walk.Order, graph));
    }

    // Every node reachable from the walk's through the graph's calls, unbounded, each once: their files and dependencies.
    private static List<string> Closure(IReadOnlyList<CodeNode> order, CallGraph graph)
    {
        var seen = new HashSet<CodeNode>(order);
        var pending = new Stack<CodeNode>(order);
        var tokens = new HashSet<string>(StringComparer.Ordinal);
        while (pending.TryPop(out var node))
        {
            tokens.Add(FactDependencies.FileToken(node.Syntax.SyntaxTree.FilePath));
            tokens.UnionWith(graph.DependsOn(node));
            foreach (var edge in graph.Facts(node).Edges)
            {
                if (seen.Add(edge.Target))
                {
                    pending.Push(edge.Target);
                }
            }
        }
        return [.. tokens.Order(StringComparer.Ordinal)];
    }
}
