namespace Tplab.Tests.Support;

/// <summary>
/// A <see cref="TimeProvider"/> whose time moves only when a test calls <see cref="Advance"/>; timers due by then fire.
/// Microsoft.Extensions.TimeProvider.Testing is not in our registry (docs/dependencies.md), so this is the few lines it takes.
/// </summary>
internal sealed class FakeTimeProvider : TimeProvider
{
    private readonly object _gate = new();
    private readonly List<FakeTimer> _timers = [];
    private DateTimeOffset _now;
    private long _ticks;

    public FakeTimeProvider(DateTimeOffset? start = null) => _now = start ?? new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    public override DateTimeOffset GetUtcNow()
    {
        lock (_gate)
        {
            return _now;
        }
    }

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    public override long GetTimestamp()
    {
        lock (_gate)
        {
            return _ticks;
        }
    }

    /// <summary>Moves time forward and fires every timer due by the new time, in due order.</summary>
    public void Advance(TimeSpan by)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(by, TimeSpan.Zero);
        long target;
        lock (_gate)
        {
            target = _ticks + by.Ticks;
        }
        while (true)
        {
            FakeTimer? next;
            lock (_gate)
            {
                next = _timers.Where(t => t.DueAt <= target).MinBy(t => t.DueAt);
                if (next is null)
                {
                    _now += TimeSpan.FromTicks(target - _ticks);
                    _ticks = target;
                    return;
                }
                _now += TimeSpan.FromTicks(Math.Max(0, next.DueAt - _ticks));
                _ticks = Math.Max(_ticks, next.DueAt);
                next.Rearm();
            }
            next.Fire();
        }
    }

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = new FakeTimer(this, callback, state);
        timer.Change(dueTime, period);
        return timer;
    }

    private sealed class FakeTimer(FakeTimeProvider owner, TimerCallback callback, object? state) : ITimer
    {
        private long _period;

        public long DueAt { get; private set; }

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            lock (owner._gate)
            {
                owner._timers.Remove(this);
                _period = period == Timeout.InfiniteTimeSpan ? 0 : period.Ticks;
                if (dueTime != Timeout.InfiniteTimeSpan)
                {
                    DueAt = owner._ticks + dueTime.Ticks;
                    owner._timers.Add(this);
                }
            }
            return true;
        }

        // Called under the owner's lock: a periodic timer goes round again, a one-shot leaves.
        public void Rearm()
        {
            owner._timers.Remove(this);
            if (_period > 0)
            {
                DueAt += _period;
                owner._timers.Add(this);
            }
        }

        public void Fire() => callback(state);

        public void Dispose()
        {
            lock (owner._gate)
            {
                owner._timers.Remove(this);
            }
        }

        public ValueTask DisposeAsync()
        {
            Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
