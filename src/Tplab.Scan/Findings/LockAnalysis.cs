using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Findings;

/// <summary>A place where a lock is held around slow work: the holder, its lock and the slow call inside it.</summary>
internal sealed record SlowHolder(CodeNode Node, LockSite Lock, BlockingSite Slow, CodeNode SlowIn);

/// <summary>
/// The contention case: which lock objects are held, anywhere in the solution, around a blocking call, I/O or a sleep
/// (directly or through the calls made inside the lock). A lock on the request path on such an object makes requests
/// queue behind the slow holder; a lock whose holders only touch memory is not reported.
/// </summary>
internal sealed class LockAnalysis
{
    private readonly Dictionary<string, List<SlowHolder>> _slow = new(StringComparer.Ordinal);

    public LockAnalysis(CallGraph graph, int maxDepth, CancellationToken cancellationToken)
    {
        var index = graph.Index;
        var parallel = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = index.Workers };
        // Which bodies take a lock: syntax only, each file on its own; kept in file order (the holders' order is the report's).
        var perTree = index.PerTree(tree =>
        {
            var found = new List<CodeNode>();
            foreach (var node in tree.GetRoot(cancellationToken).DescendantNodes())
            {
                var isLock = node is LockStatementSyntax
                    || (node is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Enter" or "TryEnter" } });
                if (isLock && index.EnclosingNode(node) is { } holder)
                {
                    found.Add(holder);
                }
            }
            return found;
        }, cancellationToken);
        var holders = perTree.SelectMany(h => h).Distinct().ToList();
        // Each holder's slow work is found on its own (binding the bodies it reaches is the cost), then noted in order.
        var found = new List<SlowHolder>[holders.Count];
        Parallel.For(0, holders.Count, parallel, i => found[i] = SlowWork(graph, holders[i], maxDepth));
        foreach (var holder in found.SelectMany(f => f))
        {
            if (!_slow.TryGetValue(holder.Lock.Key, out var list))
            {
                _slow[holder.Lock.Key] = list = [];
            }
            list.Add(holder);
        }
    }

    private static List<SlowHolder> SlowWork(CallGraph graph, CodeNode holder, int maxDepth)
    {
        var slowHolders = new List<SlowHolder>();
        var facts = graph.Facts(holder);
        foreach (var site in facts.Locks)
        {
            var slow = facts.Blocking.Where(b => b.LockId == site.Id).Select(b => ((BlockingSite Site, CodeNode In)?)(b, holder))
                .Concat(facts.Edges.Where(e => e.LockId == site.Id && graph.ReachesBlocking(e.Target)).Select(e => graph.FirstBlocking(e.Target, maxDepth)))
                .FirstOrDefault(s => s is not null);
            if (slow is not null)
            {
                slowHolders.Add(new SlowHolder(holder, site, slow.Value.Site, slow.Value.In));
            }
        }
        return slowHolders;
    }

    /// <summary>Every slow holder, in one line each (<c>node id</c>s as <see cref="WalkKeys"/> writes them): what an incremental scan compares with the cached scan's.</summary>
    public IEnumerable<string> Facts(SourceIndex index) =>
        _slow.OrderBy(s => s.Key, StringComparer.Ordinal).SelectMany(s => s.Value.Select(h =>
            $"lock {s.Key} held in {WalkKeys.Node(h.Node, index)} at {WalkKeys.Place(h.Lock.Site, index)} around {h.Slow.Call.Name} at {WalkKeys.Place(h.Slow.Site, index)} in {WalkKeys.Node(h.SlowIn, index)}"));

    /// <summary>The places that hold <paramref name="key"/> around slow work (empty: a memory-only lock).</summary>
    public IReadOnlyList<SlowHolder> SlowHolders(string key) => _slow.TryGetValue(key, out var list) ? list : [];
}
