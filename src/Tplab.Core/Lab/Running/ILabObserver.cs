using Tplab.Lab.Experiments;
using Tplab.Load;
using Tplab.Watch;

namespace Tplab.Lab.Running;

/// <summary>What the lab tells its audience (the terminal view) as it goes.</summary>
public interface ILabObserver
{
    /// <summary>A run started; <paramref name="folder"/> receives the results.</summary>
    void LabStarted(IReadOnlyList<Experiment> experiments, string folder);

    /// <summary>An experiment is skipped, with the one-line reason.</summary>
    void ExperimentSkipped(Experiment experiment, string reason);

    /// <summary>An experiment starts.</summary>
    void ExperimentStarted(Experiment experiment);

    /// <summary>A scenario starts.</summary>
    void ScenarioStarted(Scenario scenario);

    /// <summary>About once a second while a scenario loads: the load's progress and the latest pool sample.</summary>
    void ScenarioProgress(Scenario scenario, LoadProgress progress, ThreadPoolSample? pool);

    /// <summary>A scenario ended.</summary>
    void ScenarioFinished(ScenarioResult result);

    /// <summary>An experiment ended, with its lessons computed.</summary>
    void ExperimentFinished(ExperimentResult result);

    /// <summary>The run ended (also after Ctrl+C).</summary>
    void LabFinished(LabResult result);

    /// <summary>Something the user should know before the run starts (an earlier run's folder left unfinished, say).</summary>
    void Noticed(string message)
    {
    }
}
