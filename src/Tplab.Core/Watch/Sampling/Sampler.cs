using System.Collections.Concurrent;
using System.Threading.Channels;
using Tplab.Processes;
using Tplab.Watch.EventPipe;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Sampling;

/// <summary>
/// Takes a sample every interval on a dedicated thread: the newest pool counters, /proc figures, the injections
/// that arrived since the last tick, and the verdict for the moment. Stops by itself when the process is gone.
/// </summary>
internal sealed class Sampler : IDisposable
{
    private readonly int _processId;
    private readonly WatchOptions _options;
    private readonly PoolCounters _counters;
    private readonly ConcurrentQueue<AdjustmentEvent> _pending = new();
    private readonly List<ThreadPoolSample> _samples = [];
    private readonly List<ThreadPoolInjection> _injections = [];
    private readonly ManualResetEventSlim _stop = new();
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Channel<WatchRecord> _records = Channel.CreateUnbounded<WatchRecord>(new UnboundedChannelOptions { SingleWriter = true });
    private readonly CpuClock _cpu;
    private readonly long _start;
    private readonly Thread _thread;
    private ThreadPoolSample? _latest;
    private TimeSpan? _lastStarving;

    public Sampler(int processId, WatchOptions options, PoolCounters counters, long start)
    {
        _processId = processId;
        _options = options;
        _counters = counters;
        _start = start;
        _cpu = new CpuClock(processId, start);
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
                // Skip ticks missed (a suspended laptop, a stalled machine) instead of sampling in a burst.
                tick = Math.Max(tick + 1, (int)(Elapsed.Ticks / _options.Interval.Ticks) + 1);
            }
            _ended.TrySetResult();
        }
        catch (Exception e)
        {
            _ended.TrySetException(e);
        }
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
        var counters = _counters.Current;
        var reading = new PoolReading(offset, counters.ThreadCount, counters.QueueLength, counters.CompletedPerSecond, cpu.Value);
        var from = offset - _options.Thresholds.Lookback;
        var window = new VerdictWindow(
            reading,
            _samples.Where(s => s.Offset >= from).Select(s => s.Reading).ToList(),
            _injections.Where(i => i.Offset >= from).ToList(),
            _lastStarving is { } last ? offset - last : null);
        var verdict = VerdictRule.Judge(window, _options.Thresholds);
        if (verdict.Verdict == PoolVerdict.Starving)
        {
            _lastStarving = offset;
        }
        var age = counters.LastArrival is { } arrival ? Math.Max(0, (now - arrival) * 1000.0 / _options.Time.TimestampFrequency) : (double?)null;
        var sample = new ThreadPoolSample(offset, counters.ThreadCount, counters.QueueLength, counters.CompletedPerSecond,
            osThreads.Value, cpu.Value, counters.ContentionsPerSecond, age, verdict.Verdict, verdict.Evidence);
        _samples.Add(sample);
        Volatile.Write(ref _latest, sample);
        _records.Writer.TryWrite(sample);
        Deliver(s => s.OnSample(sample));
        return true;
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
