using Tplab.Processes;
using Tplab.Watch.Delay;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Sampling;

/// <summary>
/// Makes one sample: reads the newest pool counters, the lock waits, /proc (OS threads, CPU, the workers' states),
/// the scheduling delay of the interval, and judges the moment with <see cref="VerdictRule"/>. The
/// <see cref="Sampler"/> decides when; this decides what a sample holds.
/// </summary>
internal sealed class SampleReader : IDisposable
{
    private readonly int _processId;
    private readonly WatchOptions _options;
    private readonly PoolCounters _counters;
    private readonly LockWaits _lockWaits;
    private readonly DelayMeasurement? _delay;
    private readonly double _cores;
    private readonly CpuClock _cpu;
    private TimeSpan? _lastStarving;

    public SampleReader(int processId, WatchOptions options, PoolCounters counters, LockWaits lockWaits, DelayMeasurement? delay, long start)
    {
        _processId = processId;
        _options = options;
        _counters = counters;
        _lockWaits = lockWaits;
        _delay = delay;
        _cores = ProcessCpu.AvailableCores(processId);
        _cpu = new CpuClock(processId, start, _cores);
    }

    /// <summary>The process read.</summary>
    public int ProcessId => _processId;

    /// <summary>Whether the runtime's first counter payload has arrived.</summary>
    public bool HasCounters => _counters.Current.LastArrival is not null;

    /// <summary>
    /// The sample at <paramref name="now"/>; <see cref="Outcome.NoCounters"/> before the runtime's first counters (no
    /// sample is made of zeros that mean no data), <see cref="Outcome.Gone"/> once the process is.
    /// </summary>
    public (Outcome Outcome, ThreadPoolSample? Sample) Read(long now, TimeSpan offset, List<ThreadPoolSample> samples, List<ThreadPoolInjection> injections)
    {
        var osThreads = ProcessFiles.OsThreads(_processId);
        var cpu = _cpu.Read(now, _options.Time.TimestampFrequency);
        if (osThreads is null || cpu is null || !ProcessFiles.IsAlive(_processId))
        {
            return (Outcome.Gone, null);
        }
        var lockWaits = _lockWaits.Read(now);
        var delay = _delay?.Take(now);
        var counters = _counters.Current;
        if (counters.LastArrival is not { } arrival)
        {
            return (Outcome.NoCounters, null);
        }
        // Thread states cost a file read per thread: read only when work is queued or the CPU is busy, the only times
        // the rule needs them.
        var runnable = counters.QueueLength >= _options.Thresholds.QueueMin || cpu.Value >= _options.Thresholds.LowCpuPercent / 2
            || VerdictRule.LongWaits(delay, _options.Thresholds) is not null
            ? ProcessCpu.PoolWorkerStates(_processId, 3, TimeSpan.FromMilliseconds(10))?.Runnable
            : null;
        var reading = new PoolReading(offset, counters.ThreadCount, counters.QueueLength, counters.CompletedPerSecond, cpu.Value)
        {
            LockWaiters = lockWaits?.Average ?? 0,
            RunnableWorkers = runnable,
            Cores = _cores,
            MachineCpuPercent = _cpu.MachineBusyPercent,
            Delay = delay,
        };
        var from = offset - _options.Thresholds.Lookback;
        var window = new VerdictWindow(
            reading,
            Since(samples, from, TimeSpan.Zero).Select(s => s.Reading).ToList(),
            Since(injections, from, _options.Thresholds.Lookback).Where(i => i.Offset >= from).ToList(),
            _lastStarving is { } last ? offset - last : null);
        var verdict = VerdictRule.Judge(window, _options.Thresholds);
        if (verdict.Verdict.ThreadsHeld())
        {
            _lastStarving = offset;
        }
        var age = Math.Max(0, (now - arrival) * 1000.0 / _options.Time.TimestampFrequency);
        return (Outcome.Sample, new ThreadPoolSample(offset, counters.ThreadCount, counters.QueueLength, counters.CompletedPerSecond,
            osThreads.Value, cpu.Value, counters.ContentionsPerSecond, age, verdict.Verdict, verdict.Evidence)
        {
            LockWaiters = lockWaits?.Average,
            RunnableWorkers = runnable,
            Cores = _cores,
            MachineCpuPercent = _cpu.MachineBusyPercent,
            ProcessId = _processId,
            Delay = delay,
            CompletedTotal = counters.CompletedTotal,
            ContentionsTotal = counters.ContentionsTotal,
        });
    }

    public void Dispose() => _cpu.Dispose();

    /// <summary>What a reading gave.</summary>
    public enum Outcome
    {
        /// <summary>A sample.</summary>
        Sample,

        /// <summary>The runtime's counters have not arrived yet: no sample.</summary>
        NoCounters,

        /// <summary>The process is gone.</summary>
        Gone,
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
}
