using Tplab.Lab.Experiments;

namespace Tplab.Lab.Running;

/// <summary>A lesson's ratio in this run and in the seed, and whether they have the same shape (<see cref="ShapeRule"/>).</summary>
/// <param name="OursSpread">This run's ratio (a spread when scenarios were repeated); null when not compared.</param>
/// <param name="SeedSpread">The seed's ratio (a spread over its published runs); null when it printed no figure.</param>
/// <param name="Incomplete">Why this run's ratio is left out ("sleep stopped at its deadline"); null when both scenarios completed.</param>
public sealed record LessonResult(Lesson Lesson, RatioSpread? OursSpread, RatioSpread? SeedSpread, ShapeMatch Match, string? Incomplete)
{
    /// <summary>This run's ratio of mean latencies (of the averages, with repeats).</summary>
    public double? Ours => OursSpread?.Central;

    /// <summary>The seed's ratio of mean latencies (of the averages over its published runs, seed 002).</summary>
    public double? Seed => SeedSpread?.Central;
}

/// <summary>An experiment's scenarios, its lessons, and what this run observed that the seed's runtime did not.</summary>
/// <remarks>Its findings (a plan from <c>tplab scan --plan</c>: each static finding beside what this run saw) are <c>FindingVerdicts.Of</c> it.</remarks>
public sealed record ExperimentResult(Experiment Experiment, IReadOnlyList<ScenarioResult> Scenarios, IReadOnlyList<LessonResult> Lessons, IReadOnlyList<string> Observations);

/// <summary>The whole run: where it wrote, what ran, what was skipped, and whether Ctrl+C cut it short.</summary>
public sealed record LabResult(string Folder, IReadOnlyList<ExperimentResult> Experiments, IReadOnlyList<(string Experiment, string Reason)> Skipped, bool Interrupted)
{
    /// <summary>Every scenario that ran, in order.</summary>
    public IEnumerable<ScenarioResult> Scenarios => Experiments.SelectMany(e => e.Scenarios);
}
