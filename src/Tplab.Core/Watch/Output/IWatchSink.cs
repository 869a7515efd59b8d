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
