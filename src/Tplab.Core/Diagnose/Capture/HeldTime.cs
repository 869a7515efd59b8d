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
    public static IReadOnlyList<ThreadObservation> Observe(IReadOnlyList<RawSample> samples, IReadOnlyList<RawWait> waits, double startMs, double endMs) =>
        Observe(samples, waits, startMs, endMs, SamplingIntervalMs(samples));

    /// <summary>As <see cref="Observe(IReadOnlyList{RawSample}, IReadOnlyList{RawWait}, double, double)"/>, with the sampling interval already measured.</summary>
    public static IReadOnlyList<ThreadObservation> Observe(IReadOnlyList<RawSample> samples, IReadOnlyList<RawWait> waits, double startMs, double endMs, double interval)
    {
        ArgumentNullException.ThrowIfNull(samples);
        ArgumentNullException.ThrowIfNull(waits);
        var result = new List<ThreadObservation>();
        var covered = new Dictionary<int, List<(double Start, double Stop)>>();
        foreach (var wait in waits.OrderBy(w => w.ThreadId).ThenBy(w => w.StartMs))
        {
            var waitStop = wait.StopMs ?? endMs;
            if (!covered.TryGetValue(wait.ThreadId, out var spans))
            {
                covered[wait.ThreadId] = spans = [];
            }
            // A lock's contention events and a wait handle's events can nest on one thread: count the outer one only.
            if (spans.Count > 0 && wait.StartMs < spans[^1].Stop)
            {
                spans[^1] = (spans[^1].Start, Math.Max(spans[^1].Stop, waitStop));
                continue;
            }
            spans.Add((wait.StartMs, waitStop));
            var stop = Math.Min(waitStop, endMs);
            var start = Math.Max(wait.StartMs, startMs);
            if (stop > start)
            {
                result.Add(new ThreadObservation(wait.ThreadId, start, stop - start, wait.Frames, ObservationSource.WaitEvent) { Activity = wait.Activity });
            }
        }
        foreach (var (threadId, threadSamples) in ByThread(samples))
        {
            covered.TryGetValue(threadId, out var spans);
            var next = 0;
            double? previous = null;
            foreach (var sample in threadSamples)
            {
                var gap = previous is { } p ? Math.Min(sample.TimeMs - p, interval * MaxGapIntervals) : interval;
                previous = sample.TimeMs;
                // A thread's first sample stands for one interval before it, but never for time before the capture.
                var from = Math.Max(sample.TimeMs - gap, startMs);
                // Samples come in time order and the spans are disjoint, so one pass over both finds the samples inside a wait.
                while (spans is not null && next < spans.Count && spans[next].Stop < sample.TimeMs)
                {
                    next++;
                }
                var inside = spans is not null && next < spans.Count && spans[next].Start <= sample.TimeMs;
                if (sample.External && !inside && sample.TimeMs > from)
                {
                    result.Add(new ThreadObservation(sample.ThreadId, from, sample.TimeMs - from, sample.Frames, ObservationSource.Sample));
                }
            }
        }
        return result;
    }

    // Each thread's samples in time order (a trace lists them so already: sorted only when not).
    private static Dictionary<int, List<RawSample>> ByThread(IReadOnlyList<RawSample> samples)
    {
        var byThread = new Dictionary<int, List<RawSample>>();
        var sorted = true;
        foreach (var sample in samples)
        {
            if (!byThread.TryGetValue(sample.ThreadId, out var list))
            {
                byThread[sample.ThreadId] = list = [];
            }
            sorted &= list.Count == 0 || list[^1].TimeMs <= sample.TimeMs;
            list.Add(sample);
        }
        if (!sorted)
        {
            foreach (var list in byThread.Values)
            {
                list.Sort((a, b) => a.TimeMs.CompareTo(b.TimeMs));
            }
        }
        return byThread;
    }

    /// <summary>The median gap between consecutive samples of one thread (the profiler samples every thread each tick), 1 ms when unknown.</summary>
    public static double SamplingIntervalMs(IReadOnlyList<RawSample> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var gaps = new List<double>();
        foreach (var list in ByThread(samples).Values)
        {
            for (var i = 1; i < list.Count; i++)
            {
                if (list[i].TimeMs > list[i - 1].TimeMs)
                {
                    gaps.Add(list[i].TimeMs - list[i - 1].TimeMs);
                }
            }
        }
        if (gaps.Count == 0)
        {
            return 1.0;
        }
        gaps.Sort();
        return gaps[gaps.Count / 2];
    }
}
