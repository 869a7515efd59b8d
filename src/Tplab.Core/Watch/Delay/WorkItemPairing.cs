using Tplab.Runtime;

namespace Tplab.Watch.Delay;

/// <summary>
/// Pairs each work item's enqueue (event 30) with its dequeue (event 31) by the runtime's number for it, and adds the
/// time between to a histogram. Nothing is dropped silently: a dequeue with no enqueue (queued before the window
/// opened, or renumbered: older runtimes numbered items by address, which a compacting GC moves) and an enqueue with
/// no dequeue (lost, or still queued when the window closed) are counted as unpaired. Items still queued are reported
/// with the age of the oldest, a lower bound of a wait in progress. Not thread-safe: the owner locks.
/// </summary>
public sealed class WorkItemPairing
{
    /// <summary>An enqueue with no dequeue for this long is taken as lost and counted unpaired.</summary>
    public static readonly TimeSpan LostAfter = TimeSpan.FromSeconds(60);

    // Events of different threads reach the reader in buffers, not strictly in time order: a dequeue may be read just
    // before its enqueue. It waits here this long for its enqueue.
    private const double EarlyDequeueMs = 1000;

    private readonly Dictionary<long, double> _queued = [];
    private readonly Dictionary<long, double> _early = [];
    private readonly DelayHistogram _waits = new();
    private double _now;
    private long _unpaired;

    /// <summary>Events taken since the start.</summary>
    public long Events { get; private set; }

    /// <summary>Takes one event.</summary>
    public void Add(WorkItemEvent e)
    {
        Events++;
        _now = Math.Max(_now, e.TimeMs);
        if (e.Enqueued)
        {
            if (_early.Remove(e.WorkId, out var started) && started >= e.TimeMs)
            {
                _waits.Add(started - e.TimeMs);
                return;
            }
            if (_queued.ContainsKey(e.WorkId))
            {
                // The same number queued twice before a dequeue: the earlier one's dequeue was never seen.
                _unpaired++;
            }
            _queued[e.WorkId] = e.TimeMs;
        }
        else if (_queued.Remove(e.WorkId, out var queued))
        {
            _waits.Add(e.TimeMs - queued);
        }
        else
        {
            if (_early.ContainsKey(e.WorkId))
            {
                _unpaired++;
            }
            _early[e.WorkId] = e.TimeMs;
        }
    }

    /// <summary>
    /// The session closed: dequeues still unmatched and items still queued will never pair, and are counted unpaired.
    /// </summary>
    public void CloseWindow()
    {
        _unpaired += _queued.Count + _early.Count;
        _queued.Clear();
        _early.Clear();
    }

    /// <summary>The waits measured since the last call, the unpaired ones, and the items queued now; then starts afresh.</summary>
    public PairingInterval Take()
    {
        Expire(_early, EarlyDequeueMs);
        Expire(_queued, LostAfter.TotalMilliseconds);
        var oldest = _queued.Count == 0 ? 0 : _now - _queued.Values.Min();
        var interval = new PairingInterval(_waits.Snapshot(), _unpaired, _queued.Count, Math.Max(0, oldest));
        _waits.Clear();
        _unpaired = 0;
        return interval;
    }

    private void Expire(Dictionary<long, double> items, double olderThanMs)
    {
        if (items.Count == 0)
        {
            return;
        }
        var limit = _now - olderThanMs;
        foreach (var (id, at) in items)
        {
            if (at < limit)
            {
                items.Remove(id);
                _unpaired++;
            }
        }
    }
}

/// <summary>What <see cref="WorkItemPairing.Take"/> found since its last call.</summary>
/// <param name="Waits">The paired waits.</param>
/// <param name="Unpaired">Events that will never pair (see <see cref="WorkItemPairing"/>).</param>
/// <param name="Queued">Items enqueued and not yet dequeued.</param>
/// <param name="OldestQueuedMs">How long the oldest of them has waited so far, on the target's clock.</param>
public sealed record PairingInterval(DelayDistribution Waits, long Unpaired, int Queued, double OldestQueuedMs);
