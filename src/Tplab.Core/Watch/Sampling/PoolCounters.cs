using Tplab.Runtime;

namespace Tplab.Watch.Sampling;

/// <summary>The newest value of each System.Runtime counter tplab reads; written by the event thread, read by the sampler.</summary>
public sealed class PoolCounters
{
    /// <summary>ThreadPool.ThreadCount.</summary>
    public const string ThreadCount = "threadpool-thread-count";

    /// <summary>ThreadPool.PendingWorkItemCount.</summary>
    public const string QueueLength = "threadpool-queue-length";

    /// <summary>ThreadPool.CompletedWorkItemCount, as a rate.</summary>
    public const string Completed = "threadpool-completed-items-count";

    /// <summary>Monitor.LockContentionCount, as a rate.</summary>
    public const string Contentions = "monitor-lock-contention-count";

    private readonly Lock _gate = new();
    private Snapshot _current = new(0, 0, 0, 0, null);

    /// <summary>The values at one moment; <see cref="LastArrival"/> is null until a pool counter arrived.</summary>
    public sealed record Snapshot(int ThreadCount, long QueueLength, double CompletedPerSecond, double ContentionsPerSecond, long? LastArrival)
    {
        /// <summary>Work items completed since the watch began (the runtime's increments summed).</summary>
        public double CompletedTotal { get; init; }

        /// <summary>Lock contentions since the watch began.</summary>
        public double ContentionsTotal { get; init; }
    }

    /// <summary>The newest values.</summary>
    public Snapshot Current
    {
        get
        {
            lock (_gate)
            {
                return _current;
            }
        }
    }

    /// <summary>Takes one counter value; other counters of System.Runtime are ignored.</summary>
    public void Add(CounterValue value)
    {
        lock (_gate)
        {
            _current = value.Name switch
            {
                ThreadCount => _current with { ThreadCount = (int)Math.Round(value.Value), LastArrival = value.Timestamp },
                QueueLength => _current with { QueueLength = (long)Math.Round(value.Value), LastArrival = value.Timestamp },
                Completed => _current with { CompletedPerSecond = value.Value, LastArrival = value.Timestamp, CompletedTotal = _current.CompletedTotal + (value.Increment ?? 0) },
                Contentions => _current with { ContentionsPerSecond = value.Value, ContentionsTotal = _current.ContentionsTotal + (value.Increment ?? 0) },
                _ => _current,
            };
        }
    }
}
