using Tplab.Lab.Running;

namespace Tplab.Lab.Tuning;

/// <summary>Why a trial ran: the default pool, the estimate's check, a step of the search, or a knob tried at the default minimum.</summary>
public enum TrialPurpose
{
    /// <summary>The runtime's defaults.</summary>
    Baseline,

    /// <summary>The value Little's law gave.</summary>
    Estimate,

    /// <summary>A step of the search.</summary>
    Search,

    /// <summary>A knob at the default minimum.</summary>
    Knob,
}

/// <summary>One run on a fresh process: its settings, whether it met the objective, and what it cost.</summary>
/// <param name="MinThreads">The minimum tried; null for the runtime's default.</param>
/// <param name="Knob">The knob tried (NAME=VALUE), for <see cref="TrialPurpose.Knob"/>.</param>
/// <param name="ObjectiveMs">The objective's figure in this trial (ms); null when no request ended.</param>
public sealed record TuneTrial(
    int Number, TrialPurpose Purpose, int? MinThreads, string? Knob, bool Meets, string Why, double? ObjectiveMs,
    RunFigures Figures, ScenarioResult Result);

/// <summary>The Little's-law estimate: arrival rate × the time each request holds a pool thread.</summary>
/// <param name="ArrivalPerSecond">Requests per second the load offers once nothing queues.</param>
/// <param name="HoldSeconds">Seconds each request holds a pool thread.</param>
/// <param name="Explanation">How both were measured, in words.</param>
public sealed record MinThreadsEstimate(double ArrivalPerSecond, double HoldSeconds, int Threads, string Explanation);

/// <summary>What tune found: every trial, the estimate, the recommendation and the culprits that make a minimum necessary.</summary>
/// <param name="RecommendedMinThreads">The least tried minimum that met the objective; null when the default meets it or nothing did.</param>
/// <param name="DefaultMeets">Whether the runtime's defaults already met the objective.</param>
public sealed record TuneResult(
    TuneOptions Options,
    string Folder,
    int DefaultMinThreads,
    IReadOnlyList<TuneTrial> Trials,
    MinThreadsEstimate? Estimate,
    int? RecommendedMinThreads,
    bool DefaultMeets,
    int? HighestFailing,
    IReadOnlyList<Culprit> Culprits,
    bool Interrupted)
{
    /// <summary>Why the search stopped before its end, other than Ctrl+C (a trial's service died or could not start); null when it did not.</summary>
    public string? Stopped { get; init; }

    /// <summary>The exit code of <see cref="Stopped"/> (<see cref="Common.ExitCodes.ProcessExited"/>, <see cref="Common.ExitCodes.Environment"/>).</summary>
    public int? StoppedWith { get; init; }

    /// <summary>The command's exit code: 130 interrupted; the stop's code; 0 with an answer; 1 when no tried minimum met the objective.</summary>
    public int ExitCode => Interrupted ? Common.ExitCodes.Interrupted
        : StoppedWith is int code ? code
        : DefaultMeets || RecommendedMinThreads is not null ? Common.ExitCodes.Ok
        : Common.ExitCodes.Failed;

    /// <summary>The one line saying why <see cref="ExitCode"/> is not 0; null when it is.</summary>
    public string? Message => Interrupted ? $"interrupted: the trials so far are in {Folder}, marked interrupted"
        : Stopped is { } why ? $"tune stopped at {why}; the trials so far are in {Folder}"
        : ExitCode == Common.ExitCodes.Failed ? $"no tried minimum met the objective; the trials are in {Folder}"
        : null;

    /// <summary>Knobs whose trial did not meet the objective nor improve the default run's figure by more than 10%.</summary>
    public IEnumerable<TuneTrial> KnobsWithoutEffect
    {
        get
        {
            var baseline = Trials.FirstOrDefault(t => t.Purpose == TrialPurpose.Baseline)?.ObjectiveMs;
            return Trials.Where(t => t.Purpose == TrialPurpose.Knob && !t.Meets && baseline is double b && t.ObjectiveMs is double v && v >= b * 0.9);
        }
    }
}
