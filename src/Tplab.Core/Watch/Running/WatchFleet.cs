using System.Globalization;
using Tplab.Common;
using Tplab.Processes;
using Tplab.Watch.Export;
using Tplab.Watch.Output;

namespace Tplab.Watch.Running;

/// <summary>
/// The processes of one <c>tplab watch</c>: one <see cref="ThreadPoolWatch"/> each, sharing one record output (each
/// record written whole, in the order made), one set of exporters and one <c>--fail-on</c> signal. With
/// <c>-n NAME --all</c> it looks for new processes of that name every <see cref="FleetDiscovery.Interval"/> (<see cref="FleetDiscovery"/>); a process that
/// exits is dropped and said so, its summary written and its series removed.
/// </summary>
internal sealed class WatchFleet(WatchRunOptions options, IWatchSink records, ExportPump? export, StarvingSignal starving, TextWriter notices) : IAsyncDisposable
{
    private readonly Lock _gate = new();
    private readonly Dictionary<int, FleetMember> _members = [];
    private readonly List<FleetMember> _ended = [];
    private readonly HashSet<int> _refused = [];
    private readonly IWatchSink _records = new SynchronizedSink(records);
    private readonly TaskCompletionSource _empty = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _recordsFailed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _sessionsEnded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _stopping;
    private int _openSessions;

    /// <summary>The processes being watched now, in pid order.</summary>
    public IReadOnlyList<int> Watching
    {
        get
        {
            lock (_gate)
            {
                return [.. _members.Keys.Order()];
            }
        }
    }

    /// <summary>Completes when every process has exited (not with <c>--all</c>, which waits for new ones).</summary>
    public Task AllExited => _empty.Task;

    /// <summary>Completes when the record output fails (its reader went away, its disk is full): the watch has no one to watch for.</summary>
    public Task RecordsFailed => _recordsFailed.Task;

    /// <summary>
    /// Completes when every watched process's event stream has ended (not with <c>--all</c>): each then either exits
    /// or turns out to have closed its diagnostic connection, within a moment; <see cref="AllExited"/> follows.
    /// </summary>
    public Task SessionsEnded => _sessionsEnded.Task;

    /// <summary>The record output's first error, from any member (call after <see cref="StopAsync"/>), or null.</summary>
    public Exception? RecordsError => Ended.Select(m => m.Watch.SinkError ?? m.Sinks.ErrorOf(_records)).FirstOrDefault(e => e is not null);

    /// <summary>The first process watched (its pid names the watch in messages).</summary>
    public FleetMember? First { get; private set; }

    /// <summary>Every member that was stopped, in the order they ended.</summary>
    public IReadOnlyList<FleetMember> Ended
    {
        get
        {
            lock (_gate)
            {
                return [.. _ended];
            }
        }
    }

    /// <summary>Whether the watch follows several processes (several pids, or <c>--all</c>).</summary>
    public bool Several => options.All || options.ProcessIds.Count > 1;

    /// <summary>
    /// Attaches to <paramref name="processId"/>. With several processes a refusal does not end the watch: it is
    /// returned (null when the process joined) for the caller to say, and remembered so discovery does not retry it.
    /// </summary>
    public async Task<TplabException?> AddAsync(int processId, CancellationToken ct)
    {
        var sinks = new WatchSinks(_records, starving.For(processId));
        try
        {
            var watch = await ThreadPoolWatch.StartAsync(processId, WatchOptionsFor(sinks), ct).ConfigureAwait(false);
            Join(watch, sinks);
            return null;
        }
        catch (TplabException e) when (Several)
        {
            lock (_gate)
            {
                _refused.Add(processId);
            }
            return e;
        }
    }

    /// <summary>Attaches to every pid of <paramref name="processIds"/>; throws, in one line, only when none could be watched.</summary>
    public async Task AddAllAsync(IReadOnlyList<int> processIds, CancellationToken ct)
    {
        var refused = new List<(int Pid, TplabException Why)>();
        foreach (var pid in processIds)
        {
            if (await AddAsync(pid, ct).ConfigureAwait(false) is { } why)
            {
                refused.Add((pid, why));
            }
        }
        if (First is null)
        {
            throw refused.Count == 1 ? refused[0].Why : new TplabException(refused[0].Why.ExitCode,
                "none of the processes could be watched: " + string.Join("; ", refused.Select(r => $"pid {Pid(r.Pid)}: {r.Why.Message}")));
        }
        foreach (var (pid, why) in refused)
        {
            Notice($"cannot watch pid {Pid(pid)}: {why.Message}; the others go on");
        }
    }

    /// <summary>Starts <paramref name="command"/> and watches it from its first moment.</summary>
    public async Task LaunchAsync(IReadOnlyList<string> command, CancellationToken ct)
    {
        var sinks = new WatchSinks(_records);
        var watch = await ThreadPoolWatch.LaunchAsync(command, WatchOptionsFor(sinks), ct).ConfigureAwait(false);
        sinks.Add(starving.For(watch.ProcessId));
        Join(watch, sinks);
    }

    /// <summary>Whether <paramref name="processId"/> is watched, was watched, or could not be: discovery leaves it alone.</summary>
    public bool Knows(int processId)
    {
        lock (_gate)
        {
            return _members.ContainsKey(processId) || _refused.Contains(processId) || _ended.Any(m => m.ProcessId == processId);
        }
    }

    /// <summary>Whether <paramref name="processId"/> is watched now.</summary>
    public bool IsWatching(int processId)
    {
        lock (_gate)
        {
            return _members.ContainsKey(processId);
        }
    }

    /// <summary>Stops every watch (the data so far is written) and returns the members in the order they ended.</summary>
    public async Task<IReadOnlyList<FleetMember>> StopAsync()
    {
        Interlocked.Exchange(ref _stopping, 1);
        List<FleetMember> members;
        lock (_gate)
        {
            members = [.. _members.Values];
        }
        await Task.WhenAll(members.Select(m => EndAsync(m, exited: false))).ConfigureAwait(false);
        return Ended;
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync().ConfigureAwait(false);
        foreach (var member in Ended)
        {
            await member.Watch.DisposeAsync().ConfigureAwait(false);
        }
    }

    private WatchOptions WatchOptionsFor(WatchSinks sinks) =>
        new WatchOptions { Interval = options.Interval, Thresholds = options.Thresholds, Delay = options.Delay, Sink = sinks }.Validated();

    private void Join(ThreadPoolWatch watch, WatchSinks sinks)
    {
        var facts = watch.Facts;
        var process = new WatchedProcess(watch.ProcessId, facts?.Name ?? ProcessFinder.AppName(watch.ProcessId),
            facts?.RuntimeVersion ?? RuntimeVersion.Of(watch.ProcessId), options.Service ?? Environment.MachineName);
        IStarvingAction? action = null;
        if (options.OnStarving is { } onStarving)
        {
            action = onStarving.Create(watch.ProcessId, options.Interval, notices, TimeProvider.System);
            if (export is not null)
            {
                action.CulpritFound += c => export.Culprit(process, c);
            }
            sinks.Add(action);
        }
        if (export is not null)
        {
            sinks.Add(export.SinkFor(process));
        }
        sinks.SinkFailed += s =>
        {
            if (s == _records)
            {
                _recordsFailed.TrySetResult();
            }
        };
        var member = new FleetMember(watch, process, sinks, action);
        lock (_gate)
        {
            _members[watch.ProcessId] = member;
            First ??= member;
        }
        _ = watch.ProcessGone.ContinueWith(_ => EndAsync(member, exited: true), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default).Unwrap();
        Interlocked.Increment(ref _openSessions);
        _ = WatchSessionAsync(member);
    }

    // The event stream can end while the process lives on (it closed its diagnostic connection): the watch would go
    // on sampling /proc alone, with no verdict to give, so the member ends, marked. The stream ends a moment before
    // /proc shows an exiting process gone: that moment is given first.
    private async Task WatchSessionAsync(FleetMember member)
    {
        await member.Watch.EventsEnded.ConfigureAwait(false);
        if (Interlocked.Decrement(ref _openSessions) == 0 && !options.All)
        {
            _sessionsEnded.TrySetResult();
        }
        if (Volatile.Read(ref _stopping) != 0)
        {
            return;
        }
        await Task.WhenAny(member.Watch.ProcessGone, Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None)).ConfigureAwait(false);
        if (Volatile.Read(ref _stopping) != 0 || !ProcessFiles.IsAlive(member.ProcessId))
        {
            return;
        }
        member.SessionLost = true;
        if (Several)
        {
            Notice($"process {Pid(member.ProcessId)} ({member.Process.Name}) closed its diagnostic connection; dropped from the watch");
        }
        await EndAsync(member, exited: true).ConfigureAwait(false);
    }

    private async Task EndAsync(FleetMember member, bool exited)
    {
        lock (_gate)
        {
            if (!_members.Remove(member.ProcessId))
            {
                return;
            }
        }
        member.Timeline = await member.Watch.StopAsync().ConfigureAwait(false);
        if (member.Action is { } action
            && await Task.WhenAny(action.Idle, Task.Delay(TimeSpan.FromSeconds(60), CancellationToken.None)).ConfigureAwait(false) != action.Idle)
        {
            Notice($"a diagnosis of pid {Pid(member.ProcessId)} was still running 60 s after its watch ended; its file was not written");
        }
        bool last;
        lock (_gate)
        {
            _ended.Add(member);
            last = _members.Count == 0;
        }
        if (exited && Several && Volatile.Read(ref _stopping) == 0)
        {
            Notice($"process {Pid(member.ProcessId)} ({member.Process.Name}) exited; dropped from the watch ({member.Timeline.Samples.Count.ToString(CultureInfo.InvariantCulture)} samples kept)");
        }
        if (last && exited && !options.All)
        {
            _empty.TrySetResult();
        }
    }

    /// <summary>Says <paramref name="line"/> on stderr (once the watch is stopping, nothing more).</summary>
    public void Notice(string line)
    {
        lock (notices)
        {
            notices.WriteLine("tplab watch: " + line);
            notices.Flush();
        }
    }

    private static string Pid(int pid) => pid.ToString(CultureInfo.InvariantCulture);
}
