namespace Tplab.Diagnose.Capture;

/// <summary>
/// Turns samples and wait events into observations weighted by the time each represents, without counting a
/// wait twice: a wait event covers its whole interval, so samples of the same thread inside it are dropped.
/// </summary>
public static class HeldTime
{
    /// <summary>A gap longer than this many sampling intervals means the thread was not sampled (not that it waited that long).</summary>
    private const double MaxGapIntervals = 4;

    /// <summary>Observations of waiting threads from External samples and wait events, over the window [<paramref name="startMs"/>, <paramref name="endMs"/>].</summary>
    public static IReadOnlyList<ThreadObservation> Observe(IReadOnlyList<RawSample> samples, IReadOnlyList<RawWait> waits, double startMs, double endMs)
    {
        var interval = SamplingIntervalMs(samples);
        var result = new List<ThreadObservation>();
        var waitsByThread = waits.GroupBy(w => w.ThreadId).ToDictionary(g => g.Key, g => g.OrderBy(w => w.StartMs).ToList());
        var lastStop = new Dictionary<int, double>();
        foreach (var wait in waits.OrderBy(w => w.ThreadId).ThenBy(w => w.StartMs))
        {
            // A lock's contention events and a wait handle's events can nest on one thread: count the outer one only.
            if (lastStop.TryGetValue(wait.ThreadId, out var previousStop) && wait.StartMs < previousStop)
            {
                continue;
            }
            lastStop[wait.ThreadId] = wait.StopMs ?? endMs;
            var stop = Math.Min(wait.StopMs ?? endMs, endMs);
            var start = Math.Max(wait.StartMs, startMs);
            if (stop > start)
            {
                result.Add(new ThreadObservation(wait.ThreadId, start, stop - start, wait.Frames, ObservationSource.WaitEvent) { Activity = wait.Activity });
            }
        }
        foreach (var thread in samples.GroupBy(s => s.ThreadId))
        {
            waitsByThread.TryGetValue(thread.Key, out var threadWaits);
            double? previous = null;
            foreach (var sample in thread.OrderBy(s => s.TimeMs))
            {
                var gap = previous is { } p ? Math.Min(sample.TimeMs - p, interval * MaxGapIntervals) : interval;
                previous = sample.TimeMs;
                // A thread's first sample stands for one interval before it, but never for time before the capture.
                var from = Math.Max(sample.TimeMs - gap, startMs);
                if (sample.External && !InsideWait(threadWaits, sample.TimeMs, endMs) && sample.TimeMs > from)
                {
                    result.Add(new ThreadObservation(sample.ThreadId, from, sample.TimeMs - from, sample.Frames, ObservationSource.Sample));
                }
            }
        }
        return result;
    }

    /// <summary>The median gap between consecutive samples of one thread (the profiler samples every thread each tick), 1 ms when unknown.</summary>
    public static double SamplingIntervalMs(IReadOnlyList<RawSample> samples)
    {
        var gaps = new List<double>();
        foreach (var thread in samples.GroupBy(s => s.ThreadId))
        {
            double? previous = null;
            foreach (var t in thread.Select(s => s.TimeMs).Order())
            {
                if (previous is { } p && t > p)
                {
                    gaps.Add(t - p);
                }
                previous = t;
            }
        }
        if (gaps.Count == 0)
        {
            return 1.0;
        }
        gaps.Sort();
        return gaps[gaps.Count / 2];
    }

    private static bool InsideWait(List<RawWait>? waits, double timeMs, double endMs)
    {
        if (waits is null)
        {
            return false;
        }
        foreach (var wait in waits)
        {
            if (wait.StartMs > timeMs)
            {
                return false;
            }
            if (timeMs <= (wait.StopMs ?? endMs))
            {
                return true;
            }
        }
        return false;
    }
}
