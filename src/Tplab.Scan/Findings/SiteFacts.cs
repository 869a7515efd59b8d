using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Findings;

/// <summary>
/// One blocking site as every entry point sees it: the call, where it is, the node that makes it, and what about it
/// does not depend on the way in (a branch around it, why it is uncertain, the slow holder of a contended lock).
/// </summary>
/// <param name="Key">The graph's own object for the site (a blocking call, a lock, a Task.Run edge): one per site.</param>
/// <param name="AdviceMethod">The method the fix names, when it is not <paramref name="In"/> (a lock's slow holder).</param>
internal sealed record SiteFacts(object Key, CodeNode In, BlockingCall Call, Location Site, bool Conditional, string? Uncertain, CallContext Context, string? AdviceMethod = null)
{
    /// <summary>Why the call is judged to block, in words a reviewer can check (the receiver's type, the query's provider, the lock's slow holder).</summary>
    public string? Evidence { get; init; }

    /// <summary>A lock on the request path is reported, a background holder's own lock is its blocking call's finding.</summary>
    public bool RequestPathOnly => Call.Kind is BlockingKind.Lock or BlockingKind.TaskRunOffload;
}

/// <summary>The blocking sites of each node, made once (whatever number of entry points reach it).</summary>
internal sealed class SiteCatalogue(CallGraph graph, LockAnalysis locks)
{
    private static readonly StackFrame MonitorEnter = new("System.Private.CoreLib", "System.Threading.Monitor", "Enter");
    private static readonly StackFrame TaskRun = new("System.Private.CoreLib", "System.Threading.Tasks.Task", "Run");

    private readonly ConcurrentDictionary<CodeNode, IReadOnlyList<SiteFacts>> _sites = new();

    /// <summary>The sites of <paramref name="node"/>: its blocking calls, its locks that a slow holder makes wait, its awaited Task.Run of cheap work.</summary>
    public IReadOnlyList<SiteFacts> Of(CodeNode node) => _sites.GetOrAdd(node, Make);

    private List<SiteFacts> Make(CodeNode node)
    {
        var facts = graph.Facts(node);
        var sites = new List<SiteFacts>();
        foreach (var site in facts.Blocking)
        {
            sites.Add(new SiteFacts(site, node, site.Call, site.Site, site.Conditional, site.Certainty == Certainty.Uncertain ? site.Why : null, site.Context) { Evidence = site.Evidence });
        }
        // Contention holds requests' threads: judged on the request path only.
        foreach (var site in facts.Locks)
        {
            if (locks.SlowHolders(site.Key) is { Count: > 0 } holders)
            {
                var holder = holders.FirstOrDefault(h => h.Lock.Id == site.Id) ?? holders[0];
                var where = CallPosition.Of(holder.Slow.Site).Line;
                var call = new BlockingCall(BlockingKind.Lock, "lock (Monitor.Enter)", MonitorEnter) { On = site.Description };
                var why = holder.Lock.Id == site.Id
                    ? $"this lock is held around {holder.Slow.Call.Name} ({holder.SlowIn.RelativePath}:{where}): requests queue behind the one inside"
                    : $"{holder.Node.ShortName} holds the same lock around {holder.Slow.Call.Name} ({holder.SlowIn.RelativePath}:{where}): requests queue behind it";
                sites.Add(new SiteFacts(site, node, call, site.Site, site.Conditional, why, CallContext.None, holder.SlowIn.ShortName)
                {
                    Evidence = $"lock on {site.Description}, held elsewhere around {holder.Slow.Call.Name}",
                });
            }
        }
        foreach (var edge in facts.Edges.Where(e => e.Kind == EdgeKind.TaskRun && e.Awaited && !graph.ReachesBlocking(e.Target)))
        {
            var call = new BlockingCall(BlockingKind.TaskRunOffload, "Task.Run", TaskRun);
            sites.Add(new SiteFacts(edge, node, call, edge.Site, edge.Conditional, null, CallContext.TaskRun)
            {
                Evidence = "awaited Task.Run over code that reaches no blocking call",
            });
        }
        return sites;
    }
}
