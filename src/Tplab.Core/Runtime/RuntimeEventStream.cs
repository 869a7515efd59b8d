using System.Diagnostics;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace Tplab.Runtime;

/// <summary>
/// One EventPipe session decoded on a dedicated thread (never the thread pool, so tplab keeps up whatever its own
/// pool does): counter values, thread adjustments (event 55) and min/max changes (event 59) are raised as typed
/// records. Other tools (diagnose) can subscribe to <see cref="Source"/> before <see cref="Start"/> for more events.
/// Handlers run on the processing thread and must be quick.
/// </summary>
public sealed class RuntimeEventStream : IDisposable
{
    private readonly EventPipeSession _session;
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private Thread? _thread;
    private int _stopped;

    /// <summary>Wraps a started session; call <see cref="Start"/> once the handlers are attached.</summary>
    public RuntimeEventStream(EventPipeSession session)
    {
        _session = session;
        Source = new EventPipeEventSource(session.EventStream);
        Source.Dynamic.All += OnDynamic;
        Source.Clr.ThreadPoolWorkerThreadAdjustmentAdjustment += OnClr;
        Source.Clr.ThreadPoolMinMaxThreads += OnClr;
        Source.Clr.ContentionStart += OnContention;
        Source.Clr.ContentionStop += OnContention;
    }

    /// <summary>Raised for each counter value.</summary>
    public event Action<CounterValue>? CounterReceived;

    /// <summary>Raised for each thread-goal change (event 55).</summary>
    public event Action<AdjustmentEvent>? AdjustmentReceived;

    /// <summary>Raised for each min/max change (event 59).</summary>
    public event Action<MinMaxEvent>? MinMaxReceived;

    /// <summary>Raised on the processing thread for every lock-contention start and stop.</summary>
    public event Action<ContentionEvent>? ContentionReceived;

    /// <summary>Raised on the processing thread for every work item queued or started (events 30/31), when the session asked for them.</summary>
    public event Action<WorkItemEvent>? WorkItemReceived;

    /// <summary>The TraceEvent source, for subscribing to more events before <see cref="Start"/>.</summary>
    public EventPipeEventSource Source { get; }

    /// <summary>Completes when the stream ends: the session stopped or the process exited. Faults if decoding failed.</summary>
    public Task Ended => _ended.Task;

    /// <summary>Starts decoding on a dedicated thread named <paramref name="threadName"/>.</summary>
    public void Start(string threadName = "tplab EventPipe")
    {
        _thread = new Thread(Process) { IsBackground = true, Name = threadName };
        _thread.Start();
    }

    /// <summary>Asks the runtime to end the session (bounded wait); the stream then ends. Safe if the process is gone.</summary>
    public async Task StopAsync(TimeSpan timeout)
    {
        if (Interlocked.Exchange(ref _stopped, 1) == 0)
        {
            // Stop() is synchronous IPC; run it off the caller and give up after the timeout (the process may be gone).
            var stop = Task.Factory.StartNew(TryStop, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
            await Task.WhenAny(stop, Task.Delay(timeout)).ConfigureAwait(false);
        }
        if (await Task.WhenAny(Ended, Task.Delay(timeout)).ConfigureAwait(false) != Ended)
        {
            // The runtime did not close the stream: close it ourselves so the processing thread returns.
            _session.Dispose();
        }
        try
        {
            await Ended.WaitAsync(timeout).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
        }
    }

    public void Dispose()
    {
        Source.Dispose();
        _session.Dispose();
    }

    private void TryStop()
    {
        try
        {
            _session.Stop();
        }
        catch (Exception e) when (e is ServerNotAvailableException or EndOfStreamException or IOException or TimeoutException or ObjectDisposedException or ServerErrorException)
        {
            // The process exited or the session is already closed: nothing left to stop.
        }
    }

    private void Process()
    {
        try
        {
            Source.Process();
            _ended.TrySetResult();
        }
        catch (Exception e) when (Volatile.Read(ref _stopped) == 1 || e is EndOfStreamException or IOException or ObjectDisposedException or FormatException)
        {
            // A stream cut short by stop or by the process exiting is a normal end: TraceEvent reports a stream that
            // ends inside a block as FormatException ("Read past end of stream").
            _ended.TrySetResult();
        }
        catch (Exception e)
        {
            _ended.TrySetException(e);
        }
    }

    private void OnDynamic(TraceEvent data)
    {
        if (PoolEventDecoder.WorkItem(data) is { } work)
        {
            WorkItemReceived?.Invoke(work);
        }
        else if (PoolEventDecoder.Counter(data, Stopwatch.GetTimestamp()) is { } counter)
        {
            CounterReceived?.Invoke(counter);
        }
    }

    private void OnContention(TraceEvent data)
    {
        if (PoolEventDecoder.Contention(data, PoolEventDecoder.EmittedAt(data, Stopwatch.GetTimestamp())) is { } contention)
        {
            ContentionReceived?.Invoke(contention);
        }
    }

    private void OnClr(TraceEvent data)
    {
        var at = PoolEventDecoder.EmittedAt(data, Stopwatch.GetTimestamp());
        if (PoolEventDecoder.Adjustment(data, at) is { } adjustment)
        {
            AdjustmentReceived?.Invoke(adjustment);
        }
        else if (PoolEventDecoder.MinMax(data, at) is { } minMax)
        {
            MinMaxReceived?.Invoke(minMax);
        }
    }
}
