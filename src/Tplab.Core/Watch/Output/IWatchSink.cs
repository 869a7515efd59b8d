namespace Tplab.Watch.Output;

/// <summary>
/// Where a watch's records go as they are made (a live view, a JSONL or CSV writer). Called on the watch's own
/// sampling thread, one call at a time, in time order: an injection is delivered before the first sample after it.
/// </summary>
public interface IWatchSink
{
    /// <summary>A thread-goal change the runtime reported.</summary>
    void OnInjection(ThreadPoolInjection injection);

    /// <summary>A sample with its verdict.</summary>
    void OnSample(ThreadPoolSample sample);

    /// <summary>The watch ended; the summary. Called once.</summary>
    void OnCompleted(PoolTimeline timeline);
}

/// <summary>Feeding a sink a watch that already happened (a saved timeline).</summary>
public static class WatchSinkReplay
{
    /// <summary>Delivers <paramref name="timeline"/>'s samples and injections in time order, then its summary.</summary>
    public static void Replay(this IWatchSink sink, PoolTimeline timeline)
    {
        ArgumentNullException.ThrowIfNull(sink);
        ArgumentNullException.ThrowIfNull(timeline);
        foreach (var record in timeline.Samples.Cast<WatchRecord>().Concat(timeline.Injections).OrderBy(r => r.Offset))
        {
            if (record is ThreadPoolSample s)
            {
                sink.OnSample(s);
            }
            else if (record is ThreadPoolInjection i)
            {
                sink.OnInjection(i);
            }
        }
        sink.OnCompleted(timeline);
    }
}
