using Tplab.Load;
using Tplab.Watch;

namespace Tplab.Lab.Tuning;

/// <summary>What tune tells its audience as it goes (the progress display).</summary>
public interface ITuneObserver
{
    /// <summary>A trial starts.</summary>
    void TrialStarted(int number, TrialPurpose purpose, int? minThreads, string? knob);

    /// <summary>About once a second during a trial's load.</summary>
    void TrialProgress(LoadProgress progress, ThreadPoolSample? pool);

    /// <summary>A trial ended.</summary>
    void TrialFinished(TuneTrial trial);

    /// <summary>The estimate was computed from the baseline.</summary>
    void Estimated(MinThreadsEstimate estimate);

    /// <summary>Something the user should know before tune starts (an earlier run's folder left unfinished, say).</summary>
    void Noticed(string message)
    {
    }
}
