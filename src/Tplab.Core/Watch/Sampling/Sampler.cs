using System.Collections.Concurrent;
using System.Threading.Channels;
using Tplab.Processes;
using Tplab.Runtime;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Sampling;

/// <summary>
/// Takes a sample every interval on a dedicated thread: the newest pool counters, /proc figures, the injections
/// that arrived since the last tick, and the verdict for the moment. Stops by itself when the process is gone.
/// </summary>
internal sealed class Sampler : IDisposable
{
    /// <summary>Records kept for <see cref="Records"/> before the oldest unread ones are dropped.</summary>
    public const int RecordBuffer = 4096;

    private readonly int _processId;
    private readonly WatchOptions _options;
    private readonly PoolCounters _counters;
    private readonly LockWaits _lockWaits;
    private readonly double _cores;
    private readonly ConcurrentQueue<AdjustmentEvent> _pending = new();
    private readonly List<ThreadPoolSample> _samples = [];
    private readonly List<ThreadPoolInjection> _injections = [];
    private readonly ManualResetEventSlim _stop = new();
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    // Bounded: a watch that nobody reads through ReadAllAsync (the CLI writes through its sink) must not hold every
    // record of an hours-long watch twice; a reader that keeps up never loses one, a stalled one loses the oldest.
    private readonly Channel<WatchRecord> _records = Channel.CreateBounded<WatchRecord>(
        new BoundedChannelOptions(RecordBuffer) { SingleWriter = true, FullMode = BoundedChannelFullMode.DropOldest });
    private readonly CpuClock _cpu;
    private readonly long _start;
    private readonly Thread _thread;
    private ThreadPoolSample? _latest;
    private TimeSpan? _lastStarving;

    public Sampler(int processId, WatchOptions options, PoolCounters counters, LockWaits lockWaits, long start)
    {
        _processId = processId;
        _options = options;
        _counters = counters;
        _lockWaits = lockWaits;
        _start = start;
        _cores = ProcessCpu.AvailableCores(processId);
        _cpu = new CpuClock(processId, start, _cores);
        _thread = new Thread(Run) { IsBackground = true, Name = "tplab watch sampler" };
    }

    /// <summary>Completes when sampling has ended (stopped, or the process exited).</summary>
    public Task Ended => _ended.Task;

    /// <summary>Whether sampling ended because the process was gone.</summary>
    public bool ProcessExited { get; private set; }

    /// <summary>The first error a sink threw; the sink is not called again after it.</summary>
    public Exception? SinkError { get; private set; }

    public ThreadPoolSample? Latest => Volatile.Read(ref _latest);

    public ChannelReader<WatchRecord> Records => _records.Reader;

    public IReadOnlyList<ThreadPoolSample> Samples => _samples;

    public IReadOnlyList<ThreadPoolInjection> Injections => _injections;

    public TimeSpan Elapsed => _options.Time.GetElapsedTime(_start);

    public void Start() => _thread.Start();

    /// <summary>Called on the event thread; the injection is delivered at the next tick.</summary>
    public void Enqueue(AdjustmentEvent adjustment) => _pending.Enqueue(adjustment);

    /// <summary>Ends sampling and waits for the thread; then drains what arrived since the last tick.</summary>
    public async Task StopAsync()
    {
        _stop.Set();
        await Ended.ConfigureAwait(false);
    }

    /// <summary>Delivers injections that arrived after the last tick (called once the event stream has ended).</summary>
    public void Flush()
    {
        DrainInjections(Elapsed);
        _records.Writer.TryComplete();
    }

    /// <summary>Hands the finished timeline to the sink.</summary>
    public void Complete(PoolTimeline timeline) => Deliver(s => s.OnCompleted(timeline));

    public void Dispose()
    {
        _stop.Dispose();
        _cpu.Dispose();
    }

    private void Run()
    {
        try
        {
            var tick = 1;
            while (true)
            {
                var due = TimeSpan.FromTicks(_options.Interval.Ticks * tick);
                var wait = due - Elapsed;
                if (wait > TimeSpan.Zero && _stop.Wait(wait))
                {
                    break;
                }
                if (!TakeSample())
                {
                    ProcessExited = true;
                    break;
                }
                if (Latest is null && !AwaitFirstCounters(TimeSpan.FromTicks(_options.Interval.Ticks * (tick + 1))))
                {
                    break;
                }
                // Skip ticks missed (a suspended laptop, a stalled machine) instead of sampling in a burst, and a tick
                // less than half an interval after the last sample (the first one, taken when the counters came).
                tick = Math.Max(tick + 1, (int)((Elapsed + _options.Interval / 2).Ticks / _options.Interval.Ticks) + 1);
            }
            _ended.TrySetResult();
        }
        catch (Exception e)
        {
            _ended.TrySetException(e);
        }
    }

    /// <summary>
    /// The runtime's first counter payload comes about one interval after the session opens, often just after the
    /// first tick, which then makes no sample: wait for it (until the next tick) and sample at once, so a short watch
    /// still has its first sample near the first interval. False when stopped or the process is gone.
    /// </summary>
    private bool AwaitFirstCounters(TimeSpan nextTick)
    {
        while (_counters.Current.LastArrival is null && Elapsed < nextTick)
        {
            if (_stop.Wait(TimeSpan.FromMilliseconds(50)))
            {
                return false;
            }
        }
        if (_counters.Current.LastArrival is null || Elapsed >= nextTick)
        {
            return true;
        }
        if (!TakeSample())
        {
            ProcessExited = true;
            return false;
        }
        return true;
    }

    private bool TakeSample()
    {
        var now = _options.Time.GetTimestamp();
        var offset = _options.Time.GetElapsedTime(_start, now);
        DrainInjections(offset);
        var osThreads = ProcessFiles.OsThreads(_processId);
        var cpu = _cpu.Read(now, _options.Time.TimestampFrequency);
        if (osThreads is null || cpu is null || !ProcessFiles.IsAlive(_processId))
        {
            return false;
        }
        var lockWaits = _lockWaits.Read(now);
        var counters = _counters.Current;
        if (counters.LastArrival is null)
        {
            // The runtime's first counter payload comes one interval after the session starts: until then the pool's
            // figures read 0, which is no data, not an idle pool. No sample is made of it.
            return true;
        }
        // Thread states cost a file read per thread: read only when work is queued or the CPU is busy, the only times
        // the rule needs them.
        var runnable = counters.QueueLength >= _options.Thresholds.QueueMin || cpu.Value >= _options.Thresholds.LowCpuPercent / 2
            ? ProcessCpu.PoolWorkerStates(_processId, 3, TimeSpan.FromMilliseconds(10))?.Runnable
            : null;
        var reading = new PoolReading(offset, counters.ThreadCount, counters.QueueLength, counters.CompletedPerSecond, cpu.Value)
        {
            LockWaiters = lockWaits?.Average ?? 0,
            RunnableWorkers = runnable,
            Cores = _cores,
            MachineCpuPercent = _cpu.MachineBusyPercent,
        };
        var from = offset - _options.Thresholds.Lookback;
        var window = new VerdictWindow(
            reading,
            Since(_samples, from, TimeSpan.Zero).Select(s => s.Reading).ToList(),
            Since(_injections, from, _options.Thresholds.Lookback).Where(i => i.Offset >= from).ToList(),
            _lastStarving is { } last ? offset - last : null);
        var verdict = VerdictRule.Judge(window, _options.Thresholds);
        if (verdict.Verdict.ThreadsHeld())
        {
            _lastStarving = offset;
        }
        var age = counters.LastArrival is { } arrival ? Math.Max(0, (now - arrival) * 1000.0 / _options.Time.TimestampFrequency) : (double?)null;
        var sample = new ThreadPoolSample(offset, counters.ThreadCount, counters.QueueLength, counters.CompletedPerSecond,
            osThreads.Value, cpu.Value, counters.ContentionsPerSecond, age, verdict.Verdict, verdict.Evidence)
        {
            LockWaiters = lockWaits?.Average,
            RunnableWorkers = runnable,
            Cores = _cores,
            MachineCpuPercent = _cpu.MachineBusyPercent,
        };
        _samples.Add(sample);
        Volatile.Write(ref _latest, sample);
        _records.Writer.TryWrite(sample);
        Deliver(s => s.OnSample(sample));
        return true;
    }

    // The records from `from` on, found from the end: a watch of hours holds tens of thousands of samples, and a
    // scan from the start at every tick would make each tick slower than the last. Injections arrive nearly in
    // order (stamped by the target); `slack` keeps looking that much further back for one that came late.
    private static IEnumerable<T> Since<T>(List<T> records, TimeSpan from, TimeSpan slack) where T : WatchRecord
    {
        var first = records.Count;
        while (first > 0 && records[first - 1].Offset >= from - slack)
        {
            first--;
        }
        return records.Skip(first);
    }

    private void DrainInjections(TimeSpan upTo)
    {
        while (_pending.TryDequeue(out var e))
        {
            var offset = _options.Time.GetElapsedTime(_start, e.Timestamp);
            // Clamp into the watch: an event emitted just before the session began, or stamped a hair after this tick.
            offset = offset < TimeSpan.Zero ? TimeSpan.Zero : offset > upTo ? upTo : offset;
            var reason = InjectionReasons.FromCode(e.ReasonCode);
            var injection = new ThreadPoolInjection(offset, e.NewWorkerThreadCount, reason, e.ReasonCode, e.AverageThroughput);
            _injections.Add(injection);
            _records.Writer.TryWrite(injection);
            Deliver(s => s.OnInjection(injection));
        }
    }

    private void Deliver(Action<IWatchSink> write)
    {
        if (_options.Sink is not { } sink || SinkError is not null)
        {
            return;
        }
        try
        {
            write(sink);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException or ObjectDisposedException)
        {
            SinkError = e;
        }
    }
}
