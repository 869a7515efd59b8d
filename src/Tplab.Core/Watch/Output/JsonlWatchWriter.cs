namespace Tplab.Watch.Output;

/// <summary><c>--format jsonl</c>: one JSON object per line, per record as it is made, the summary last.</summary>
public sealed class JsonlWatchWriter(TextWriter writer) : IWatchSink
{
    /// <summary>Writes a whole timeline (samples and injections merged in time order, then the summary).</summary>
    public static void WriteTimeline(PoolTimeline timeline, TextWriter writer) => new JsonlWatchWriter(writer).Replay(timeline);

    public void OnInjection(ThreadPoolInjection injection) => Line(WatchJson.Injection(injection));

    public void OnSample(ThreadPoolSample sample) => Line(WatchJson.Sample(sample));

    public void OnCompleted(PoolTimeline timeline) => Line(WatchJson.Summary(timeline));

    private void Line(string json)
    {
        writer.WriteLine(json);
        writer.Flush();
    }
}
