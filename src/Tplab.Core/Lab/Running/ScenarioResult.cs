using Tplab.Blocking;
using Tplab.Lab.Experiments;
using Tplab.Load.Summary;
using Tplab.Load;
using Tplab.Watch;

namespace Tplab.Lab.Running;

/// <summary>How a scenario ended.</summary>
public enum ScenarioStatus
{
    /// <summary>The load ran to its end.</summary>
    Completed,

    /// <summary>Stopped by Ctrl+C; the figures cover what ran.</summary>
    Interrupted,

    /// <summary>Stopped at the scenario's deadline; the figures cover what ran.</summary>
    DeadlineReached,

    /// <summary>Could not run (the target did not start, for example); see the error.</summary>
    Failed,
}

/// <summary>Everything one scenario produced: the load summary and records, the pool timeline, the culprits.</summary>
public sealed record ScenarioResult
{
    /// <summary>The scenario that ran.</summary>
    public required Scenario Scenario { get; init; }

    /// <summary>How it ended.</summary>
    public required ScenarioStatus Status { get; init; }

    /// <summary>One line saying why it failed or was cut short; null when completed.</summary>
    public string? Error { get; init; }

    /// <summary>A failed scenario's exit code in <see cref="Common.ExitCodes"/> terms (3: the service could not start; 7: it exited mid-scenario); null otherwise.</summary>
    public int? FailedWith { get; init; }

    /// <summary>The load's summary and per-request records; null when the load never started.</summary>
    public LoadResult? Load { get; init; }

    /// <summary>The target's pool, second by second; null when the watch could not attach.</summary>
    public PoolTimeline? Timeline { get; init; }

    /// <summary>When the watch started, to line the pool timeline up with the load's requests.</summary>
    public DateTimeOffset WatchStartedAt { get; init; }

    /// <summary>Blocking code found by diagnose during the scenario (empty when none, or not starving).</summary>
    public IReadOnlyList<Culprit> Culprits { get; init; } = [];

    /// <summary>Why the culprit hunt named nothing (the pool never read starving, the capture failed or saw no blocked thread); null when it named some or did not run.</summary>
    public string? NoCulpritBecause { get; init; }

    /// <summary>Per endpoint of the scenario's request mix (the user's service), as the load summarised them; empty for the built-in target.</summary>
    public IReadOnlyList<TargetSummary> Endpoints => Scenario.Requests.Count > 0 && Load is { } l ? l.Summary.Targets : [];

    /// <summary>Peak memory and CPU of the service's process; null when it could not be read.</summary>
    public ProcessCost? Cost { get; init; }

    /// <summary>With --repeat: which run (1-based) this result's requests, timeline and charts come from; 0 when not repeated.</summary>
    public int Run { get; init; }

    /// <summary>With --repeat: every run's figures, in run order; empty when the scenario ran once.</summary>
    public IReadOnlyList<RunFigures> Runs { get; init; } = [];

    /// <summary>Mean latency in ms, when the load ran and some request ended; with --repeat, the mean over the runs.</summary>
    public double? MeanMs => Runs.Count > 1 ? Spread.Of(Runs.Select(r => r.MeanMs))?.Mean
        : Load is { Summary.Requests: > 0 } l ? l.Summary.LatencyMs.Mean : null;

    /// <summary>Each run's mean latency in ms (one value when the scenario ran once), for rules that use the spread.</summary>
    public IReadOnlyList<double> RunMeansMs => Runs.Count > 1 ? [.. Runs.Select(r => r.MeanMs).OfType<double>()] : MeanMs is double m ? [m] : [];

    /// <summary>One figure over the repeated runs; null when the scenario ran once.</summary>
    public Spread? SpreadOf(Func<RunFigures, double?> figure) => Runs.Count > 1 ? Spread.Of(Runs.Select(figure)) : null;
}

/// <summary>A blocking call and the user method that made it, as diagnose names it.</summary>
/// <param name="Threads">Pool threads held on average over the capture.</param>
public sealed record Culprit(string BlockingCall, string UserFrame, double Threads, double Share, IReadOnlyList<string> Stack, string Advice);
