using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Load;
using Tplab.Launch;
using Tplab.Launch.Service;
using Tplab.Watch;

namespace Tplab.Lab.Running;

/// <summary>
/// Runs one scenario against a fresh process of the service (no pool history leaks between scenarios): watch its
/// pool, load it, look for the blocking code while it starves, then stop everything.
/// </summary>
internal sealed class ScenarioRunner(LabOptions options, ILabObserver observer)
{
    /// <summary>Starts the culprit hunt (pid, watch, stop looking, abort); tests put a fake here to see it stopped.</summary>
    internal Func<int, ThreadPoolWatch, CancellationToken, CancellationToken, Task<HuntResult>> Hunt { get; init; } = CulpritHunt.StartAsync;

    public async Task<ScenarioResult> RunAsync(Scenario scenario, IServiceLauncher launcher, CancellationToken userCancel)
    {
        IServiceInstance target;
        try
        {
            target = await launcher.StartAsync(scenario.ThreadPool, userCancel).ConfigureAwait(false);
        }
        catch (TplabException e) when (!userCancel.IsCancellationRequested)
        {
            return new ScenarioResult { Scenario = scenario, Status = ScenarioStatus.Failed, Error = e.Message, FailedWith = e.ExitCode };
        }
        await using (target.ConfigureAwait(false))
        {
            await WarmUpAsync(scenario, launcher, target, userCancel).ConfigureAwait(false);
            var watchStarted = options.Time.GetUtcNow();
            ThreadPoolWatch? watch = null;
            string? watchError = null;
            try
            {
                watch = await ThreadPoolWatch.StartAsync(target.ProcessId, new WatchOptions { Interval = options.WatchInterval }, userCancel).ConfigureAwait(false);
            }
            catch (TplabException e)
            {
                watchError = $"the pool could not be watched: {e.Message}";
            }
            // Whatever the load does (ends, is cut short, throws), the hunt is stopped and the EventPipe session closed.
            try
            {
                return await LoadAndWatchAsync(scenario, launcher, target, watch, watchStarted, watchError, userCancel).ConfigureAwait(false);
            }
            finally
            {
                if (watch is not null)
                {
                    await watch.DisposeAsync().ConfigureAwait(false);
                }
            }
        }
    }

    private async Task<ScenarioResult> LoadAndWatchAsync(Scenario scenario, IServiceLauncher launcher, IServiceInstance target, ThreadPoolWatch? watch, DateTimeOffset watchStarted, string? watchError, CancellationToken userCancel)
    {
        if (watch is not null)
        {
            await FirstCountersAsync(watch, options.Time, userCancel).ConfigureAwait(false);
        }
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(userCancel);
        deadline.CancelAfter(scenario.Deadline);
        // The hunt looks only while the load runs: once it ends, the blocked stacks are gone.
        using var loading = CancellationTokenSource.CreateLinkedTokenSource(deadline.Token);
        var culprits = options.Diagnose && watch is not null
            ? Hunt(target.ProcessId, watch, loading.Token, deadline.Token)
            : Task.FromResult(HuntResult.None(null));
        var cpuAtStart = ProcessCost.CpuTime(target.ProcessId);
        var progress = new Progress<LoadProgress>(p => observer.ScenarioProgress(scenario, p, watch?.Latest));
        LoadResult load;
        HuntResult found;
        // A service (or its database) that dies under the load ends the load at once: the rest would only measure a
        // refused port, and the scenario is failed whatever it measures.
        using var gone = CancellationTokenSource.CreateLinkedTokenSource(deadline.Token);
        var dependencies = WatchDependenciesAsync(scenario, launcher, target, gone, loading.Token);
        try
        {
            load = await LoadRunner.RunAsync(LoadProfiles.ToOptions(scenario, target), progress, gone.Token).ConfigureAwait(false);
        }
        finally
        {
            // Also when the load throws: a hunt left waiting for "starving" would hold the watch and poll forever.
            await loading.CancelAsync().ConfigureAwait(false);
            found = await culprits.ConfigureAwait(false);
            await dependencies.ConfigureAwait(false);
        }
        var cost = ProcessCost.Measure(target.ProcessId, cpuAtStart);
        PoolTimeline? timeline = null;
        if (watch is not null)
        {
            await FreshCountersAsync(watch, options.Time.GetUtcNow() - watchStarted, options.Time).ConfigureAwait(false);
            timeline = await watch.StopAsync().ConfigureAwait(false);
        }
        // A service that died under the load (killed, crashed) leaves figures that describe its death, not the
        // scenario: they are kept, and the scenario is failed, never passed off as a result.
        var died = userCancel.IsCancellationRequested ? null : target.Exited;
        var status = userCancel.IsCancellationRequested ? ScenarioStatus.Interrupted
            : died is not null ? ScenarioStatus.Failed
            : deadline.IsCancellationRequested ? ScenarioStatus.DeadlineReached
            : ScenarioStatus.Completed;
        var error = status switch
        {
            ScenarioStatus.Interrupted => "interrupted (Ctrl+C or SIGTERM); figures cover what ran",
            ScenarioStatus.Failed => $"the service (pid {target.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture)}) {died} during the scenario; figures cover what ran until then",
            ScenarioStatus.DeadlineReached => $"stopped at the scenario deadline ({DurationText.Format(scenario.Deadline)}); figures cover what ran",
            _ => watchError,
        };
        return new ScenarioResult
        {
            Scenario = scenario, Status = status, Error = error, Load = load, Timeline = timeline,
            WatchStartedAt = watchStarted, Culprits = found.Culprits, NoCulpritBecause = found.NoneBecause, Cost = cost, FailedWith = status == ScenarioStatus.Failed ? ExitCodes.ProcessExited : null,
        };
    }

    private async Task WatchDependenciesAsync(Scenario scenario, IServiceLauncher launcher, IServiceInstance target, CancellationTokenSource gone, CancellationToken loading)
    {
        while (!loading.IsCancellationRequested)
        {
            if (target.Exited is not null || (scenario.NeedsDatabase && launcher is TargetStack { DatabaseLost: not null }))
            {
                await gone.CancelAsync().ConfigureAwait(false);
                return;
            }
            try
            {
                await Task.Delay(TimeSpan.FromMilliseconds(200), options.Time, loading).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    // The runtime sends its first counters one interval after the session starts; loading before then would leave
    // the pool's state at the start of the load unknown.
    private static async Task FirstCountersAsync(ThreadPoolWatch watch, TimeProvider time, CancellationToken ct)
    {
        var start = time.GetTimestamp();
        while (watch.Latest?.CountersAgeMs is null && time.GetElapsedTime(start) < TimeSpan.FromSeconds(3) && !ct.IsCancellationRequested)
        {
            await Task.Delay(50, CancellationToken.None).ConfigureAwait(false);
        }
    }

    // The pool right after a short burst is part of the story (threads created, queue drained), but the runtime's
    // counters arrive once an interval: keep watching until one payload taken after the load has arrived.
    private static async Task FreshCountersAsync(ThreadPoolWatch watch, TimeSpan loadEnded, TimeProvider time)
    {
        var start = time.GetTimestamp();
        while (time.GetElapsedTime(start) < TimeSpan.FromSeconds(1.5))
        {
            if (watch.Latest is { CountersAgeMs: double age } latest && latest.Offset - TimeSpan.FromMilliseconds(age) > loadEnded)
            {
                return;
            }
            await Task.Delay(50, CancellationToken.None).ConfigureAwait(false);
        }
    }

    /// <summary>Warm-up requests per fresh target: enough to compile the route, too few to grow the pool.</summary>
    public const int WarmUpRequests = 8;

    // Compiles the code paths (Kestrel, the framework, the handlers, the drivers) two requests at a time, so the first
    // measured requests do not pay for the JIT; two concurrent requests never make the pool add threads. The built-in
    // target's routes wait ms=0; the user's service gets its scenario's own requests.
    private static async Task WarmUpAsync(Scenario scenario, IServiceLauncher launcher, IServiceInstance target, CancellationToken ct)
    {
        var count = launcher is UserServiceLauncher user ? user.Service.WarmUpRequests : WarmUpRequests;
        if (count == 0)
        {
            return;
        }
        var load = LoadProfiles.ToOptions(scenario, target);
        var warm = load with
        {
            Url = scenario.Variant is { } v ? target.Url($"/{v}?ms=0") : load.Url,
            Targets = scenario.Variant is null ? load.Targets : [],
            Concurrency = 2, Requests = count, Loops = null, Duration = null, RampUp = TimeSpan.Zero, Think = null, Rate = null,
            Timeout = TimeSpan.FromSeconds(30), KeepRecords = false,
        };
        await LoadRunner.RunAsync(warm, null, ct).ConfigureAwait(false);
    }
}
