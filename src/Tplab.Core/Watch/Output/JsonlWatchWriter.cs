using Tplab.Common.Json;

namespace Tplab.Watch.Output;

/// <summary><c>--format jsonl</c>: one JSON object per line (<see cref="WatchLine"/>), per record as it is made, the summary last.</summary>
public sealed class JsonlWatchWriter(TextWriter writer) : IWatchSink
{
    /// <summary>Writes a whole timeline (samples and injections merged in time order, then the summary).</summary>
    public static void WriteTimeline(PoolTimeline timeline, TextWriter writer) => new JsonlWatchWriter(writer).Replay(timeline);

    /// <summary>One record as its line, without the line break.</summary>
    public static string Line(WatchLine line) => TplabJson.Serialize(line, WatchJsonContext.Lines.WatchLine);

    public void OnInjection(ThreadPoolInjection injection) => Write(InjectionLine.From(injection));

    public void OnSample(ThreadPoolSample sample) => Write(SampleLine.From(sample));

    public void OnCompleted(PoolTimeline timeline) => Write(SummaryLine.From(timeline));

    private void Write(WatchLine line)
    {
        writer.Write(Line(line));
        writer.Write('\n');
        writer.Flush();
    }
}
