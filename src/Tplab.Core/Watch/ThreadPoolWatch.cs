using System.Runtime.CompilerServices;
using Tplab.Processes;
using Tplab.Runtime;
using Tplab.Watch.Delay;
using Tplab.Watch.Sampling;

namespace Tplab.Watch;

/// <summary>
/// Watches one .NET process's thread pool over EventPipe: samples every interval on a dedicated thread, with the
/// runtime's injections and a verdict; <see cref="StopAsync"/> returns the immutable <see cref="PoolTimeline"/>.
/// Used by <c>tplab watch</c> and by the lab, which records each scenario's timeline.
/// </summary>
public sealed class ThreadPoolWatch : IAsyncDisposable
{
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(5);
    private readonly RuntimeConnection _connection;
    private readonly RuntimeEventStream _stream;
    private readonly Sampler _sampler;
    private readonly DelayMeasurement? _delay;
    private readonly WatchOptions _options;
    private MinMaxEvent? _limits;
    private PoolTimeline? _timeline;
    private readonly DateTimeOffset _startedAt;

    private ThreadPoolWatch(RuntimeConnection connection, RuntimeEventStream stream, Sampler sampler, DelayMeasurement? delay, WatchOptions options)
    {
        _connection = connection;
        _stream = stream;
        _sampler = sampler;
        _delay = delay;
        _options = options;
        _startedAt = options.Time.GetUtcNow();
    }

    /// <summary>What was known about the attached process (name, runtime version); null for a started command.</summary>
    public TargetFacts? Facts => _connection.Facts;

    /// <summary>The watched process.</summary>
    public int ProcessId => _connection.ProcessId;

    /// <summary>The process tplab started for <see cref="LaunchAsync"/> (its output, its exit); null when attached.</summary>
    public ChildProcess? Child => _connection.Child;

    /// <summary>The newest sample, for a live view; null before the first interval has passed.</summary>
    public ThreadPoolSample? Latest => _sampler.Latest;

    /// <summary>Completes when sampling ends by itself: the process exited. Call <see cref="StopAsync"/> for the timeline.</summary>
    public Task ProcessGone => _sampler.Ended;

    /// <summary>Completes when the runtime's event stream ends, whatever the reason: the process exited, or it closed the session.</summary>
    public Task EventsEnded => _stream.Ended;

    /// <summary>Attaches to a running .NET process and starts sampling at once.</summary>
    public static async Task<ThreadPoolWatch> StartAsync(int processId, WatchOptions options, CancellationToken cancellationToken = default)
    {
        options.Validated();
        var connection = await RuntimeConnection.AttachAsync(processId, cancellationToken).ConfigureAwait(false);
        return await StartAsync(connection, options, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Starts <paramref name="command"/> suspended, opens the session, then lets it run: the watch sees the process
    /// from its first moment (like <c>dotnet-counters monitor -- COMMAND</c>). Needs .NET 5+ in the command.
    /// </summary>
    public static async Task<ThreadPoolWatch> LaunchAsync(IReadOnlyList<string> command, WatchOptions options, CancellationToken cancellationToken = default)
    {
        options.Validated();
        var connection = await RuntimeConnection.LaunchAsync(command, options.ConnectTimeout, cancellationToken).ConfigureAwait(false);
        return await StartAsync(connection, options, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Every record as it is made, samples and injections in time order; ends when the watch stops. One reader. Up to
    /// 4096 unread records are kept (memory stays flat when nobody reads); a reader that falls further behind loses the oldest.
    /// </summary>
    public async IAsyncEnumerable<WatchRecord> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        await foreach (var record in _sampler.Records.ReadAllAsync(cancellationToken).ConfigureAwait(false))
        {
            yield return record;
        }
    }

    /// <summary>
    /// Stops sampling and the session and returns the timeline; if the process exited during the watch, returns what
    /// was collected, marked <see cref="PoolTimeline.ProcessExited"/>. Idempotent.
    /// </summary>
    public async Task<PoolTimeline> StopAsync()
    {
        if (_timeline is not null)
        {
            return _timeline;
        }
        await _sampler.StopAsync().ConfigureAwait(false);
        _delay?.Stop();
        await _stream.StopAsync(StopTimeout).ConfigureAwait(false);
        _sampler.Flush();
        var exited = _sampler.ProcessExited || !ProcessFiles.IsAlive(ProcessId);
        _timeline = new PoolTimeline(ProcessId, _options.Interval, _sampler.Elapsed, _sampler.Samples, _sampler.Injections, _limits, exited)
        {
            DelayNote = DelayNotes.For(_options.Delay, _delay, _sampler.Samples),
            StartedAt = _startedAt,
        };
        _sampler.Complete(_timeline);
        return _timeline;
    }

    /// <summary>The first error the sink threw (an output that could not be written), if any.</summary>
    public Exception? SinkError => _sampler.SinkError;

    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync().ConfigureAwait(false);
        }
        finally
        {
            _stream.Dispose();
            _delay?.Dispose();
            _sampler.Dispose();
            await _connection.DisposeAsync().ConfigureAwait(false);
        }
    }

    private static async Task<ThreadPoolWatch> StartAsync(RuntimeConnection connection, WatchOptions options, CancellationToken cancellationToken)
    {
        try
        {
            var session = await connection.StartSessionAsync(RuntimeProviders.ForWatch(options.Interval), cancellationToken).ConfigureAwait(false);
            var stream = new RuntimeEventStream(session);
            var counters = new PoolCounters();
            var start = options.Time.GetTimestamp();
            var lockWaits = new LockWaits(start);
            var delay = options.Delay.Mode == DelayMode.Off ? null : new DelayMeasurement(connection, options.Delay, options.Time);
            var sampler = new Sampler(options, new SampleReader(connection.ProcessId, options, counters, lockWaits, delay, start), start);
            var watch = new ThreadPoolWatch(connection, stream, sampler, delay, options);
            stream.CounterReceived += counters.Add;
            stream.AdjustmentReceived += sampler.Enqueue;
            stream.ContentionReceived += lockWaits.Add;
            stream.MinMaxReceived += m => watch._limits = m;
            stream.Start("tplab watch events");
            sampler.Start();
            connection.Resume();
            delay?.Start();
            return watch;
        }
        catch
        {
            await connection.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }
}
