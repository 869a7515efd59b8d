using Tplab.Common;
using Tplab.Runtime;

namespace Tplab.Watch.Delay;

/// <summary>
/// Measures the scheduling delay from outside the process: a second EventPipe session with only the work-item events
/// (30/31), opened and closed on a dedicated thread in windows (<see cref="DelayOptions"/>), since EventPipe cannot
/// sample events and each one costs the target. The sampler takes the interval's figures with <see cref="Take"/>.
/// </summary>
internal sealed class DelayMeasurement : IDisposable
{
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(5);
    private readonly RuntimeConnection _connection;
    private readonly DelayOptions _options;
    private readonly TimeProvider _time;
    private readonly Lock _gate = new();
    private readonly WorkItemPairing _pairing = new();
    private readonly ManualResetEventSlim _stop = new();
    private readonly Thread _thread;
    private long? _onSince;
    private long _onTicks;

    public DelayMeasurement(RuntimeConnection connection, DelayOptions options, TimeProvider time)
    {
        _connection = connection;
        _options = options;
        _time = time;
        _thread = new Thread(Run) { IsBackground = true, Name = "tplab watch delay" };
    }

    /// <summary>Why the delay could not be measured, in one line; null while it can.</summary>
    public string? Problem { get; private set; }

    /// <summary>Work-item events read since the start.</summary>
    public long Events
    {
        get
        {
            lock (_gate)
            {
                return _pairing.Events;
            }
        }
    }

    public void Start() => _thread.Start();

    /// <summary>The figures since the last call, or null when the events were off for the whole interval.</summary>
    public SchedulingDelay? Take(long now)
    {
        lock (_gate)
        {
            var on = _onTicks + (_onSince is { } since ? now - since : 0);
            _onTicks = 0;
            if (_onSince is not null)
            {
                _onSince = now;
            }
            var interval = _pairing.Take();
            if (on <= 0 && interval.Waits.Count == 0 && interval.Unpaired == 0)
            {
                return null;
            }
            return SchedulingDelay.From(interval, on / (double)_time.TimestampFrequency);
        }
    }

    /// <summary>Closes the window under way and ends the thread.</summary>
    public void Stop()
    {
        _stop.Set();
        if (_thread.IsAlive)
        {
            _thread.Join(StopTimeout * 2);
        }
    }

    public void Dispose()
    {
        Stop();
        _stop.Dispose();
    }

    private void Run()
    {
        while (!_stop.IsSet)
        {
            RuntimeEventStream? stream;
            try
            {
                var session = _connection.StartSessionAsync([RuntimeProviders.WorkItems()], CancellationToken.None).GetAwaiter().GetResult();
                stream = new RuntimeEventStream(session);
            }
            catch (TplabException e)
            {
                // The process refused or is gone: the watch goes on without the measured delay.
                Problem = e.Message;
                return;
            }
            stream.WorkItemReceived += Add;
            stream.Start("tplab watch delay events");
            Switch(on: true);
            var gap = TimeSpan.Zero;
            // While the budget allows, the session stays open from window to window: a restart would cut the long
            // waits that matter in two, and a slow pool sends few events.
            while (!_stop.IsSet && gap == TimeSpan.Zero && !stream.Ended.IsCompleted)
            {
                var before = Events;
                if (_stop.Wait(_options.Window))
                {
                    break;
                }
                gap = _options.GapAfter(Events - before, _options.Window);
            }
            var ended = stream.Ended.IsCompleted;
            stream.StopAsync(StopTimeout).GetAwaiter().GetResult();
            stream.Dispose();
            Switch(on: false);
            if (ended && !_stop.IsSet)
            {
                // The stream ended by itself: the process is gone (the watch notices that on its own).
                return;
            }
            _stop.Wait(gap);
        }
    }

    private void Add(WorkItemEvent e)
    {
        lock (_gate)
        {
            _pairing.Add(e);
        }
    }

    private void Switch(bool on)
    {
        lock (_gate)
        {
            var now = _time.GetTimestamp();
            if (on)
            {
                _onSince = now;
                return;
            }
            if (_onSince is { } since)
            {
                _onTicks += now - since;
            }
            _onSince = null;
            _pairing.CloseWindow();
        }
    }
}
