using Tplab.Runtime;

namespace Tplab.Watch.Sampling;

/// <summary>
/// Threads waiting for contended locks, from the runtime's ContentionStart/Stop events: the thread-time spent waiting
/// in an interval divided by the interval is the average number of threads held by lock waits. Written by the event
/// thread, read by the sampler once per sample.
/// </summary>
public sealed class LockWaits
{
    private readonly Lock _gate = new();
    private readonly Dictionary<int, long> _open = [];
    private long _closedTicks;
    private long _lastRead;
    private bool _seen;

    /// <summary>Starts measuring at <paramref name="start"/> (a Stopwatch timestamp).</summary>
    public LockWaits(long start) => _lastRead = start;

    /// <summary>Takes one start or stop event.</summary>
    public void Add(ContentionEvent e)
    {
        lock (_gate)
        {
            _seen = true;
            if (e.Started)
            {
                _open[e.ThreadId] = e.Timestamp;
            }
            else if (_open.Remove(e.ThreadId, out var began))
            {
                // Only the part of the wait since the last reading belongs to this interval.
                _closedTicks += Math.Max(0, e.Timestamp - Math.Max(began, _lastRead));
            }
        }
    }

    /// <summary>
    /// Average threads waiting for locks since the previous reading (waits still going count up to <paramref name="now"/>),
    /// and threads waiting right now; null when the runtime sent no contention event yet (none, or not supported).
    /// </summary>
    public (double Average, int Now)? Read(long now)
    {
        lock (_gate)
        {
            var from = _lastRead;
            var span = now - from;
            _lastRead = now;
            var ticks = _closedTicks;
            _closedTicks = 0;
            foreach (var began in _open.Values)
            {
                ticks += Math.Max(0, now - Math.Max(began, from));
            }
            if (!_seen)
            {
                return null;
            }
            return (span <= 0 ? 0 : ticks / (double)span, _open.Count);
        }
    }
}
