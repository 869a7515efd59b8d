using System.Collections.Concurrent;
using System.Threading.Channels;
using Tplab.Processes;
using Tplab.Runtime;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Sampling;

/// <summary>
/// The watch's clock: takes a sample every interval on a dedicated thread (what a sample holds is
/// <see cref="SampleReader"/>'s), delivers it and the injections that arrived since the last tick to the records and
/// the sink, in time order. Stops by itself when the process is gone.
/// </summary>
internal sealed class Sampler : IDisposable
{
    /// <summary>Records kept for <see cref="Records"/> before the oldest unread ones are dropped.</summary>
    public const int RecordBuffer = 4096;

    private readonly WatchOptions _options;
    private readonly SampleReader _reader;
    private readonly ConcurrentQueue<AdjustmentEvent> _pending = new();
    private readonly List<ThreadPoolSample> _samples = [];
    private readonly List<ThreadPoolInjection> _injections = [];
    private readonly ManualResetEventSlim _stop = new();
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    // Bounded: a watch that nobody reads through ReadAllAsync (the CLI writes through its sink) must not hold every
    // record of an hours-long watch twice; a reader that keeps up never loses one, a stalled one loses the oldest.
    private readonly Channel<WatchRecord> _records = Channel.CreateBounded<WatchRecord>(
        new BoundedChannelOptions(RecordBuffer) { SingleWriter = true, FullMode = BoundedChannelFullMode.DropOldest });
    private readonly long _start;
    private readonly Thread _thread;
    private ThreadPoolSample? _latest;

    public Sampler(WatchOptions options, SampleReader reader, long start)
    {
        _options = options;
        _reader = reader;
        _start = start;
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
        _reader.Dispose();
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
        while (!_reader.HasCounters && Elapsed < nextTick)
        {
            if (_stop.Wait(TimeSpan.FromMilliseconds(50)))
            {
                return false;
            }
        }
        if (!_reader.HasCounters || Elapsed >= nextTick)
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
        var (outcome, sample) = _reader.Read(now, offset, _samples, _injections);
        if (outcome == SampleReader.Outcome.Gone)
        {
            return false;
        }
        if (sample is null)
        {
            return true;
        }
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
            var injection = new ThreadPoolInjection(offset, e.NewWorkerThreadCount, reason, e.ReasonCode, e.AverageThroughput) { ProcessId = _reader.ProcessId };
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
