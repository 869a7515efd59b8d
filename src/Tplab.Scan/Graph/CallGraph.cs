using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// The call graph over the solution's own source, built lazily: a node's body is read the first time a walk from an
/// entry point (or the lock analysis) reaches it, then kept.
/// </summary>
internal sealed class CallGraph(SourceIndex index, BlockingRules rules)
{
    // Lazy: walks from several entry points reach the same body at once; it is bound once, the others wait for it.
    private readonly ConcurrentDictionary<CodeNode, Lazy<NodeFacts>> _facts = new();
    private readonly ConcurrentDictionary<CodeNode, IReadOnlyList<string>> _depends = new();
    private readonly ConcurrentDictionary<CodeNode, bool> _reachesBlocking = new();
    private readonly ConcurrentDictionary<CodeNode, bool> _usesTypeArguments = new();
    private readonly ConcurrentDictionary<CodeNode, bool> _usesThis = new();
    private int _lockIds;

    public SourceIndex Index => index;

    /// <summary>How many bodies have been read (the walks', the lock analysis', the closures' below).</summary>
    public int NodesRead => _facts.Count;

    public NodeFacts Facts(CodeNode node) =>
        _facts.GetOrAdd(node, n => new Lazy<NodeFacts>(() =>
        {
            var (facts, tokens) = FactDependencies.Noting(() => BodyWalker.Walk(index, rules, n, () => Interlocked.Increment(ref _lockIds)));
            _depends[n] = tokens;
            return facts;
        })).Value;

    /// <summary>What <paramref name="node"/>'s facts were read from beyond its own body (<see cref="FactDependencies"/>), once they are read.</summary>
    public IReadOnlyList<string> DependsOn(CodeNode node)
    {
        Facts(node);
        return _depends[node];
    }

    /// <summary>
    /// Whether the type arguments <paramref name="node"/> runs with can narrow a call it makes: an interface call on a
    /// receiver typed by its type parameter, in it, in its lambdas, or in a generic method it hands them on to. A walk
    /// carries type arguments only into such nodes (elsewhere they would only split the walk's states).
    /// </summary>
    public bool UsesTypeArguments(CodeNode node) => UsesTypeArguments(node, []);

    private bool UsesTypeArguments(CodeNode node, HashSet<CodeNode> visiting)
    {
        if (_usesTypeArguments.TryGetValue(node, out var known))
        {
            return known;
        }
        if (!visiting.Add(node))
        {
            return false;
        }
        var uses = Facts(node).Edges.Any(e => e.GenericReceiver is not null || e.OnTypeParameter is not null
            || ((e.Target.IsLambda || (e.CalledOn is { } on && TypeShapes.MentionsTypeParameter(on)) || (!e.TypeArguments.IsDefaultOrEmpty && e.TypeArguments.Any(a => TypeShapes.MentionsTypeParameter(a))))
                && UsesTypeArguments(e.Target, visiting)));
        visiting.Remove(node);
        _usesTypeArguments[node] = uses;
        return uses;
    }

    /// <summary>
    /// Whether the concrete type of <c>this</c> can narrow a call <paramref name="node"/> makes: a virtual call on
    /// <c>this</c> with several overrides, in it, in its lambdas, or in what it calls on <c>this</c>. A walk carries
    /// <c>this</c> only into such nodes.
    /// </summary>
    public bool UsesThis(CodeNode node) => UsesThis(node, []);

    private bool UsesThis(CodeNode node, HashSet<CodeNode> visiting)
    {
        if (_usesThis.TryGetValue(node, out var known))
        {
            return known;
        }
        if (!visiting.Add(node))
        {
            return false;
        }
        var uses = Facts(node).Edges.Any(e => e.VirtualOnThis is not null || ((e.OnThis || e.Target.IsLambda) && UsesThis(e.Target, visiting)));
        visiting.Remove(node);
        _usesThis[node] = uses;
        return uses;
    }

    /// <summary>
    /// Whether any blocking call is reachable from <paramref name="node"/> through the solution's code (a lock with a slow
    /// holder does not count: this is "does this code itself hold a thread").
    /// </summary>
    public bool ReachesBlocking(CodeNode node)
    {
        if (_reachesBlocking.TryGetValue(node, out var known))
        {
            return known;
        }
        var seen = new HashSet<CodeNode>();
        var pending = new Stack<CodeNode>([node]);
        var found = false;
        while (pending.Count > 0 && !found)
        {
            var n = pending.Pop();
            if (!seen.Add(n))
            {
                continue;
            }
            if (_reachesBlocking.TryGetValue(n, out var k) && k)
            {
                found = true;
                break;
            }
            var facts = Facts(n);
            found = facts.Blocking.Count > 0;
            foreach (var e in facts.Edges)
            {
                pending.Push(e.Target);
            }
        }
        _reachesBlocking[node] = found;
        return found;
    }

    /// <summary>The blocking calls reachable from <paramref name="node"/> (first found per site), for the lock analysis' holders.</summary>
    public (BlockingSite Site, CodeNode In)? FirstBlocking(CodeNode node, int maxDepth)
    {
        var seen = new HashSet<CodeNode>();
        var frontier = new Queue<(CodeNode Node, int Depth)>([(node, 0)]);
        while (frontier.Count > 0)
        {
            var (n, depth) = frontier.Dequeue();
            if (!seen.Add(n) || depth > maxDepth)
            {
                continue;
            }
            var facts = Facts(n);
            if (facts.Blocking.FirstOrDefault() is { } site)
            {
                return (site, n);
            }
            foreach (var e in facts.Edges)
            {
                frontier.Enqueue((e.Target, depth + 1));
            }
        }
        return null;
    }
}
