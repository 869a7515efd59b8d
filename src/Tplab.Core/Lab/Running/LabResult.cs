using Tplab.Lab.Experiments;

namespace Tplab.Lab.Running;

/// <summary>A lesson's ratio in this run and in the seed (null where a side is missing).</summary>
public sealed record LessonResult(Lesson Lesson, double? Ours, double? Seed);

/// <summary>An experiment's scenarios, its lessons, and what this run observed that the seed's runtime did not.</summary>
public sealed record ExperimentResult(Experiment Experiment, IReadOnlyList<ScenarioResult> Scenarios, IReadOnlyList<LessonResult> Lessons, IReadOnlyList<string> Observations);

/// <summary>The whole run: where it wrote, what ran, what was skipped, and whether Ctrl+C cut it short.</summary>
public sealed record LabResult(string Folder, IReadOnlyList<ExperimentResult> Experiments, IReadOnlyList<(string Experiment, string Reason)> Skipped, bool Interrupted)
{
    /// <summary>Every scenario that ran, in order.</summary>
    public IEnumerable<ScenarioResult> Scenarios => Experiments.SelectMany(e => e.Scenarios);
}
