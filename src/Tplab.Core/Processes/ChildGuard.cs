namespace Tplab.Processes;

/// <summary>
/// Ends, when tplab ends (even by kill -9), a child process that a library started on tplab's behalf and that tplab
/// cannot start through <see cref="ChildProcess"/> (Roslyn's MSBuild build host). A <see cref="Watchdog"/> per child;
/// disposing stands them down once the library has stopped its children itself.
/// </summary>
public sealed class ChildGuard : IDisposable
{
    /// <summary>
    /// How often to look once a child was found. A look reads every thread's children file (0.6 ms of CPU for a
    /// 27-thread scan, 2–4 ms in a host with 100–200 threads), so looking every 10 ms for a whole load cost 6% of a core
    /// in a scan and 20–40% in a host with many threads. The first child is what the short interval is for: Roslyn
    /// starts one build host per kind of runtime, at the load's start.
    /// </summary>
    internal static readonly TimeSpan AfterFirst = TimeSpan.FromMilliseconds(250);

    private readonly Func<IReadOnlyList<string>, bool> _matches;
    private readonly Dictionary<int, Watchdog> _watched = [];
    private readonly Dictionary<int, IReadOnlyList<string>> _seen = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _polling;

    private ChildGuard(Func<IReadOnlyList<string>, bool> matches, TimeSpan interval)
    {
        _matches = matches;
        _polling = Task.Run(() => PollAsync(interval, _stop.Token));
    }

    /// <summary>How many children are watched now.</summary>
    public int Watched
    {
        get
        {
            lock (_watched)
            {
                return _watched.Count;
            }
        }
    }

    /// <summary>Every child watched so far, ended or not, with its command line as it was found.</summary>
    public IReadOnlyList<(int ProcessId, IReadOnlyList<string> CommandLine)> Seen
    {
        get
        {
            lock (_watched)
            {
                return [.. _seen.Select(s => (s.Key, s.Value))];
            }
        }
    }

    /// <summary>
    /// Watches tplab's children whose command line <paramref name="matches"/> says, looking every <paramref name="interval"/>
    /// until the first is found, then every <see cref="AfterFirst"/> (a child started and killed within one interval of
    /// tplab's death is the one case left to the child itself).
    /// </summary>
    public static ChildGuard Start(Func<IReadOnlyList<string>, bool> matches, TimeSpan interval) => new(matches, interval);

    /// <summary>Kills the watched children now (tplab was interrupted while they worked for it).</summary>
    public void KillWatched()
    {
        lock (_watched)
        {
            foreach (var pid in _watched.Keys.Where(ProcessFiles.IsAlive))
            {
                try
                {
                    using var child = System.Diagnostics.Process.GetProcessById(pid);
                    child.Kill(entireProcessTree: true);
                }
                catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
                {
                    // Already gone.
                }
            }
        }
    }

    public void Dispose()
    {
        _stop.Cancel();
        try
        {
            _polling.Wait(TimeSpan.FromSeconds(2));
        }
        catch (AggregateException)
        {
            // The poller only ends by cancellation.
        }
        lock (_watched)
        {
            foreach (var watchdog in _watched.Values)
            {
                watchdog.Dispose();
            }
            _watched.Clear();
        }
        _stop.Dispose();
    }

    private async Task PollAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval);
        var self = Environment.ProcessId;
        do
        {
            foreach (var child in ProcessFiles.Children(self))
            {
                lock (_watched)
                {
                    var commandLine = _watched.ContainsKey(child) ? null : ProcessFiles.CommandLine(child);
                    if (commandLine is null || !_matches(commandLine))
                    {
                        continue;
                    }
                    _seen[child] = commandLine;
                    try
                    {
                        _watched[child] = Watchdog.Start(child);
                        if (timer.Period < AfterFirst)
                        {
                            timer.Period = AfterFirst;
                        }
                    }
                    catch (System.ComponentModel.Win32Exception)
                    {
                        // No /bin/sh: the child is left to end itself when its pipe to tplab closes.
                    }
                }
            }
        }
        while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false));
    }
}
