namespace Tplab.Watch.Output;

/// <summary>
/// Several sinks as one: each record goes to every sink in order; a sink that throws is dropped (its error kept in
/// <see cref="Errors"/>) and the others go on. Sinks may be added while the watch runs (<see cref="Add"/>).
/// </summary>
public sealed class WatchSinks(params IEnumerable<IWatchSink> initial) : IWatchSink
{
    private readonly List<IWatchSink> sinks = [.. initial];
    private readonly List<(IWatchSink Sink, Exception Error)> _errors = [];

    /// <summary>Adds a sink; it receives the records made from now on.</summary>
    public void Add(IWatchSink sink)
    {
        lock (sinks)
        {
            sinks.Add(sink);
        }
    }

    /// <summary>Raised once per sink, when it first fails (its reader went away, its disk is full).</summary>
    public event Action<IWatchSink>? SinkFailed;

    /// <summary>The first error of <paramref name="sink"/>, if it failed.</summary>
    public Exception? ErrorOf(IWatchSink sink) => _errors.FirstOrDefault(e => e.Sink == sink).Error;

    /// <summary>The sinks that failed, with their first error.</summary>
    public IReadOnlyList<(IWatchSink Sink, Exception Error)> Errors => _errors;

    public void OnInjection(ThreadPoolInjection injection) => Each(s => s.OnInjection(injection));

    public void OnSample(ThreadPoolSample sample) => Each(s => s.OnSample(sample));

    public void OnCompleted(PoolTimeline timeline) => Each(s => s.OnCompleted(timeline));

    private void Each(Action<IWatchSink> write)
    {
        IWatchSink[] now;
        lock (sinks)
        {
            now = [.. sinks];
        }
        foreach (var sink in now)
        {
            if (_errors.Any(e => e.Sink == sink))
            {
                continue;
            }
            try
            {
                write(sink);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException or ObjectDisposedException)
            {
                _errors.Add((sink, e));
                SinkFailed?.Invoke(sink);
            }
        }
    }
}
