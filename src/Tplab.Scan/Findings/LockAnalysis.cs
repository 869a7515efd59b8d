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
        var holders = new HashSet<CodeNode>();
        foreach (var tree in index.Trees)
        {
            foreach (var node in tree.GetRoot().DescendantNodes())
            {
                var isLock = node is LockStatementSyntax
                    || (node is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Enter" or "TryEnter" } });
                if (isLock && index.EnclosingNode(node) is { } holder)
                {
                    holders.Add(holder);
                }
            }
        }
        foreach (var holder in holders)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var facts = graph.Facts(holder);
            foreach (var site in facts.Locks)
            {
                var slow = facts.Blocking.Where(b => b.LockId == site.Id).Select(b => ((BlockingSite Site, CodeNode In)?)(b, holder))
                    .Concat(facts.Edges.Where(e => e.LockId == site.Id && graph.ReachesBlocking(e.Target)).Select(e => graph.FirstBlocking(e.Target, maxDepth)))
                    .FirstOrDefault(s => s is not null);
                if (slow is null)
                {
                    continue;
                }
                if (!_slow.TryGetValue(site.Key, out var list))
                {
                    _slow[site.Key] = list = [];
                }
                list.Add(new SlowHolder(holder, site, slow.Value.Site, slow.Value.In));
            }
        }
    }

    /// <summary>The places that hold <paramref name="key"/> around slow work (empty: a memory-only lock).</summary>
    public IReadOnlyList<SlowHolder> SlowHolders(string key) => _slow.TryGetValue(key, out var list) ? list : [];
}
