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

    /// <summary>Time since the start.</summary>
    public TimeSpan Now => Time.GetElapsedTime(_start);

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
