namespace Tplab.Load.Engine;

/// <summary>
/// The run's time line: offsets from the start, read from the injected <see cref="TimeProvider"/>
/// (the system one reads <see cref="System.Diagnostics.Stopwatch.GetTimestamp"/>, so measurement is high-resolution).
/// </summary>
public sealed class LoadClock
{
    private readonly long _start;

    /// <summary>Starts the time line now.</summary>
    public LoadClock(TimeProvider time)
    {
        Time = time ?? throw new ArgumentNullException(nameof(time));
        _start = time.GetTimestamp();
        StartedAt = time.GetUtcNow();
    }

    /// <summary>The provider waits and timestamps come from.</summary>
    public TimeProvider Time { get; }

    /// <summary>Wall-clock time of the start (for CSV timestamps).</summary>
    public DateTimeOffset StartedAt { get; }

    /// <summary>
    /// A wall-clock instant given in Unix epoch milliseconds (as another process on this machine stamps it) as an
    /// offset on this time line. Both clocks are the system's real-time clock, so on one machine they agree to microseconds.
    /// </summary>
    public TimeSpan FromUnixMilliseconds(double unixMs) =>
        TimeSpan.FromTicks((long)Math.Round(unixMs * TimeSpan.TicksPerMillisecond)) - (StartedAt - DateTimeOffset.UnixEpoch);

    /// <summary>Time since the start.</summary>
    public TimeSpan Now => Time.GetElapsedTime(_start);

    /// <summary>
    /// Blocks the calling (dedicated) thread until <paramref name="due"/>; false when <paramref name="ct"/> ended the wait.
    /// On the system clock it sleeps and never spins (a spinning pacer would take a core from the target under test):
    /// whole milliseconds while far, then on Linux one nanosleep for the rest, so a send leaves within about 0.1 ms
    /// of its slot on an idle machine; other providers wait on their timers.
    /// </summary>
    public bool WaitUntil(TimeSpan due, CancellationToken ct)
    {
        while (!ct.IsCancellationRequested)
        {
            var remaining = due - Now;
            if (remaining <= TimeSpan.Zero)
            {
                return true;
            }
            if (Time != TimeProvider.System)
            {
                try
                {
                    Task.Delay(remaining, Time, ct).Wait(ct);
                }
                catch (OperationCanceledException)
                {
                    return false;
                }
                continue;
            }
            if (remaining > TimeSpan.FromMilliseconds(2) || !Sockets.Native.IsSupported)
            {
                // Long waits on the cancellable handle, in whole milliseconds, leaving the last one or two for below.
                ct.WaitHandle.WaitOne(Math.Max(1, (int)remaining.TotalMilliseconds - 1));
                continue;
            }
            // The last stretch with nanosleep: the kernel wakes it within its timer slack (50 µs by default), where
            // a millisecond wait would oversleep by up to a millisecond. Still a sleep: no core is spun.
            Sockets.Native.Sleep(remaining);
        }
        return false;
    }

    /// <summary>
    /// Waits until the clock reads at least <paramref name="due"/>; false when <paramref name="ct"/> ended the wait.
    /// A timer may wake a little early: this waits again for the rest, so a planned start or pause is never short.
    /// </summary>
    public async Task<bool> WaitUntilAsync(TimeSpan due, CancellationToken ct)
    {
        while (Now < due)
        {
            if (!await WaitAsync(due - Now, ct).ConfigureAwait(false))
            {
                return false;
            }
        }
        return !ct.IsCancellationRequested;
    }

    /// <summary>Waits <paramref name="delay"/> on the provider; false when <paramref name="ct"/> ended the wait.</summary>
    public async Task<bool> WaitAsync(TimeSpan delay, CancellationToken ct)
    {
        if (delay <= TimeSpan.Zero)
        {
            return !ct.IsCancellationRequested;
        }
        try
        {
            await Task.Delay(delay, Time, ct).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
