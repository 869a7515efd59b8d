using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Findings;

/// <summary>What the run says about one static finding.</summary>
public enum FindingState
{
    /// <summary>Diagnose named the same user method and blocking call under the scenario's load.</summary>
    Confirmed,

    /// <summary>The requests reached the code, and diagnose did not name it under that load.</summary>
    NotSeen,

    /// <summary>The requests did not reach the code: no answer was a success (401, 404, 400, 503...), the connection was refused, or the service did not start.</summary>
    NotReached,

    /// <summary>The scenario did not run: switched off (a write), or the run ended before it.</summary>
    NotRun,
}

/// <summary>
/// A static finding beside what the run saw: its state and why, and when confirmed the runtime's culprit (threads held),
/// with the scenario's latency and the pool's verdict.
/// </summary>
/// <param name="Scenario">The scenario whose load checked it: its own, or for a watched finding the one whose culprit named it; null when none did.</param>
/// <param name="Culprit">Diagnose's culprit that names the same method and call; null unless confirmed.</param>
/// <param name="MeanMs">The scenario's mean latency (ms), when it ran.</param>
/// <param name="P99Ms">The scenario's p99 latency (ms), when it ran.</param>
/// <param name="Pool">The pool's verdict over the scenario, when it was watched.</param>
public sealed record FindingResult(
    FindingCheck Check,
    bool Watched,
    string? Scenario,
    FindingState State,
    string Reason,
    Culprit? Culprit,
    double? MeanMs,
    double? P99Ms,
    PoolVerdict? Pool);
