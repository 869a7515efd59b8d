using System.Threading.Channels;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Export;

/// <summary>
/// Carries records from the watches' sampling threads to the exporters: a sink per process that only posts to a
/// bounded queue (never waits), and one dedicated thread that applies each update to every exporter. An exporter
/// that throws is reported once and dropped; the others and the watch go on.
/// </summary>
public sealed class ExportPump : IDisposable
{
    private const int Capacity = 4096;
    private readonly IReadOnlyList<IWatchExporter> _exporters;
    private readonly TextWriter _notices;
    private readonly HashSet<IWatchExporter> _failed = [];
    private readonly Channel<ExportUpdate> _updates = Channel.CreateBounded<ExportUpdate>(
        new BoundedChannelOptions(Capacity) { SingleReader = true, FullMode = BoundedChannelFullMode.DropOldest });
    private readonly Thread _thread;

    /// <summary>Starts the export thread for <paramref name="exporters"/>; problems go to <paramref name="notices"/> as one line each.</summary>
    public ExportPump(IReadOnlyList<IWatchExporter> exporters, TextWriter notices)
    {
        _exporters = exporters;
        _notices = notices;
        _thread = new Thread(Run) { IsBackground = true, Name = "tplab watch export" };
        _thread.Start();
    }

    /// <summary>The sink that feeds the exporters with <paramref name="process"/>'s records.</summary>
    public IWatchSink SinkFor(WatchedProcess process) => new ProcessSink(this, process);

    /// <summary>Publishes a culprit a diagnosis found.</summary>
    public void Culprit(WatchedProcess process, StarvingCulprit culprit) => Post(new CulpritFound(process, culprit));

    /// <summary>Removes a process's series (it exited, or the watch of it ended).</summary>
    public void Gone(WatchedProcess process) => Post(new ProcessGone(process));

    /// <summary>Applies what is queued, then stops the thread and the exporters.</summary>
    public void Dispose()
    {
        _updates.Writer.TryComplete();
        _thread.Join(TimeSpan.FromSeconds(10));
        foreach (var exporter in _exporters)
        {
            exporter.Dispose();
        }
    }

    // A full queue drops its oldest update (DropOldest): the exporters show the latest values, and the sampler never waits.
    private void Post(ExportUpdate update) => _updates.Writer.TryWrite(update);

    private void Run()
    {
        var reader = _updates.Reader;
        while (reader.WaitToReadAsync().AsTask().GetAwaiter().GetResult())
        {
            while (reader.TryRead(out var update))
            {
                foreach (var exporter in _exporters)
                {
                    if (_failed.Contains(exporter))
                    {
                        continue;
                    }
                    try
                    {
                        exporter.Apply(update);
                    }
                    catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException or ObjectDisposedException)
                    {
                        _failed.Add(exporter);
                        Notice($"the export to {exporter.Where} stopped: {e.Message}; the watch goes on");
                    }
                }
            }
        }
    }

    private void Notice(string line)
    {
        lock (_notices)
        {
            _notices.WriteLine("tplab watch: " + line);
            _notices.Flush();
        }
    }

    // On the sampling thread: counts the injections and posts; nothing here waits.
    private sealed class ProcessSink(ExportPump pump, WatchedProcess process) : IWatchSink
    {
        private readonly Dictionary<string, long> _injections = new(StringComparer.Ordinal);

        public void OnInjection(ThreadPoolInjection injection) =>
            _injections[injection.ReasonName] = _injections.GetValueOrDefault(injection.ReasonName) + 1;

        public void OnSample(ThreadPoolSample sample) =>
            pump.Post(new ProcessSampled(process, sample, new Dictionary<string, long>(_injections, StringComparer.Ordinal)));

        public void OnCompleted(PoolTimeline timeline) => pump.Gone(process);
    }
}

/// <summary>The verdict words, for the state series.</summary>
internal static class VerdictWords
{
    public static IReadOnlyList<PoolVerdict> All { get; } = Enum.GetValues<PoolVerdict>();
}
