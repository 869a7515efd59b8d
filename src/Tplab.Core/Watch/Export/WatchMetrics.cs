namespace Tplab.Watch.Export;

/// <summary>How a metric aggregates.</summary>
public enum WatchMetricKind
{
    /// <summary>A value at the moment (an OpenTelemetry gauge or up-down counter).</summary>
    Gauge,

    /// <summary>A total that only grows (since the watch began).</summary>
    Counter,

    /// <summary>A distribution in buckets.</summary>
    Histogram,
}

/// <summary>
/// One metric tplab exports, defined once for every exporter: its OpenTelemetry name and unit, its Prometheus name,
/// how it aggregates and what it means. Names the OpenTelemetry semantic conventions define for the runtime's own
/// meter are used as they are (so dashboards built for it work), tplab's own live under <c>tplab.</c>.
/// </summary>
/// <param name="Name">The OpenTelemetry instrument name.</param>
/// <param name="Unit">The UCUM unit (<c>{thread}</c>, <c>s</c>, <c>1</c>).</param>
/// <param name="PrometheusName">The Prometheus series name (with <c>_total</c> for counters, the unit for seconds).</param>
/// <param name="Label">An extra label beyond the process's, or null.</param>
public sealed record WatchMetric(string Name, string Unit, string PrometheusName, WatchMetricKind Kind, string Description, string? Label = null);

/// <summary>The catalogue of exported metrics (docs/watch.md has the table).</summary>
public static class WatchMetrics
{
    /// <summary>dotnet.thread_pool.thread.count: ThreadPool.ThreadCount.</summary>
    public static readonly WatchMetric Threads = new("dotnet.thread_pool.thread.count", "{thread}", "dotnet_thread_pool_thread_count", WatchMetricKind.Gauge,
        "Thread-pool worker threads (ThreadPool.ThreadCount), read from outside by tplab watch");

    /// <summary>dotnet.thread_pool.queue.length: ThreadPool.PendingWorkItemCount.</summary>
    public static readonly WatchMetric Queue = new("dotnet.thread_pool.queue.length", "{work_item}", "dotnet_thread_pool_queue_length", WatchMetricKind.Gauge,
        "Work items queued in the thread pool (ThreadPool.PendingWorkItemCount)");

    /// <summary>dotnet.thread_pool.work_item.count: completed work items.</summary>
    public static readonly WatchMetric Completed = new("dotnet.thread_pool.work_item.count", "{work_item}", "dotnet_thread_pool_work_item_count_total", WatchMetricKind.Counter,
        "Work items the thread pool completed since the watch began");

    /// <summary>dotnet.monitor.lock_contentions: contended lock acquisitions.</summary>
    public static readonly WatchMetric Contentions = new("dotnet.monitor.lock_contentions", "{contention}", "dotnet_monitor_lock_contentions_total", WatchMetricKind.Counter,
        "Contended Monitor lock acquisitions since the watch began");

    /// <summary>tplab.thread_pool.injections: the runtime's thread-goal changes, by reason.</summary>
    public static readonly WatchMetric Injections = new("tplab.thread_pool.injections", "{injection}", "tplab_thread_pool_injections_total", WatchMetricKind.Counter,
        "Thread-goal changes the runtime reported (event 55), by reason (Starvation, CooperativeBlocking, hill climbing...)", "reason");

    /// <summary>tplab.thread_pool.lock_waiters: threads waiting for contended locks.</summary>
    public static readonly WatchMetric LockWaiters = new("tplab.thread_pool.lock_waiters", "{thread}", "tplab_thread_pool_lock_waiters", WatchMetricKind.Gauge,
        "Threads waiting for contended locks, on average over the last interval (ContentionStart/Stop)");

    /// <summary>tplab.process.cpu.utilization: CPU in parts of the cores the process may use.</summary>
    public static readonly WatchMetric Cpu = new("tplab.process.cpu.utilization", "1", "tplab_process_cpu_utilization", WatchMetricKind.Gauge,
        "The process's CPU over the last interval, 0-1 of the cores it may use (the gate thread's measure)");

    /// <summary>tplab.process.thread.count: the process's OS threads.</summary>
    public static readonly WatchMetric OsThreads = new("tplab.process.thread.count", "{thread}", "tplab_process_thread_count", WatchMetricKind.Gauge,
        "Threads of the process (/proc/PID/status)");

    /// <summary>tplab.pool.verdict: 1 for the current verdict, 0 for the others.</summary>
    public static readonly WatchMetric Verdict = new("tplab.pool.verdict", "1", "tplab_pool_verdict", WatchMetricKind.Gauge,
        "The pool's verdict as a state: 1 for the current one (healthy, starving, recovering, lock-contention, cpu-saturated), 0 for the others", "verdict");

    /// <summary>tplab.thread_pool.scheduling_delay: measured waits in the queue.</summary>
    public static readonly WatchMetric Delay = new("tplab.thread_pool.scheduling_delay", "s", "tplab_thread_pool_scheduling_delay_seconds", WatchMetricKind.Histogram,
        "Time work items waited in the pool's queue, measured from the runtime's enqueue/dequeue events (in sampled windows)");

    /// <summary>tplab.thread_pool.scheduling_delay.unpaired: events that could not be paired.</summary>
    public static readonly WatchMetric Unpaired = new("tplab.thread_pool.scheduling_delay.unpaired", "{event}", "tplab_thread_pool_scheduling_delay_unpaired_total", WatchMetricKind.Counter,
        "Enqueue/dequeue events that could not be paired (queued before a window, lost, or still queued when it closed)");

    /// <summary>tplab.thread_pool.oldest_waiting: the longest wait still going.</summary>
    public static readonly WatchMetric OldestWaiting = new("tplab.thread_pool.oldest_waiting", "s", "tplab_thread_pool_oldest_waiting_seconds", WatchMetricKind.Gauge,
        "How long the oldest work item still queued has waited so far (last measured; a lower bound of its delay)");

    /// <summary>tplab.thread_pool.scheduling_delay.estimate: queue ÷ completions per second.</summary>
    public static readonly WatchMetric Estimate = new("tplab.thread_pool.scheduling_delay.estimate", "s", "tplab_thread_pool_scheduling_delay_estimate_seconds", WatchMetricKind.Gauge,
        "Estimated scheduling delay from the counters alone: queue length / completions per second (+Inf when nothing completes)");

    /// <summary>Every metric, in the order of the docs' table.</summary>
    public static IReadOnlyList<WatchMetric> All { get; } =
        [Threads, Queue, Completed, Contentions, Injections, LockWaiters, Cpu, OsThreads, Verdict, Delay, Unpaired, OldestWaiting, Estimate];

    /// <summary>The Prometheus series naming a diagnosed culprit (<c>--on-starving diagnose</c>): 1 with its labels.</summary>
    public const string CulpritInfo = "tplab_culprit_info";

    /// <summary>Histogram bucket bounds of the scheduling delay, in seconds: 100 µs to 30 s.</summary>
    public static IReadOnlyList<double> DelayBucketsSeconds { get; } =
        [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
}
