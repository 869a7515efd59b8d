using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Load;
using Tplab.Watch;

namespace Tplab.Tests.Support;

/// <summary>An audience that listens to nothing.</summary>
internal sealed class NullLabObserver : ILabObserver
{
    public void LabStarted(IReadOnlyList<Experiment> experiments, string folder) { }
    public void ExperimentSkipped(Experiment experiment, string reason) { }
    public void ExperimentStarted(Experiment experiment) { }
    public void ScenarioStarted(Scenario scenario) { }
    public void ScenarioProgress(Scenario scenario, LoadProgress progress, ThreadPoolSample? pool) { }
    public void ScenarioFinished(ScenarioResult result) { }
    public void ExperimentFinished(ExperimentResult result) { }
    public void LabFinished(LabResult result) { }
}
