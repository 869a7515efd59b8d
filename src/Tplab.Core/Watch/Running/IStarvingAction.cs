using Tplab.Watch.Output;

namespace Tplab.Watch.Running;

/// <summary>
/// What a watch starts when the pool turns starving (<c>--on-starving</c>): a sink that sees every record and acts in
/// the background, so sampling goes on. Defined here so the watch knows nothing of what the action is (a diagnosis).
/// </summary>
public interface IStarvingAction : IWatchSink
{
    /// <summary>Completes when no action is under way; the watch waits for it before it ends, so no result is lost.</summary>
    Task Idle { get; }

    /// <summary>Raised, off the sampling thread, with the top culprit of each diagnosis written.</summary>
    event Action<StarvingCulprit>? CulpritFound;
}

/// <summary>Makes the <see cref="IStarvingAction"/> for one watched process, once its pid is known.</summary>
public interface IStarvingActionFactory
{
    /// <summary>The action for <paramref name="processId"/> sampled every <paramref name="interval"/>; notices go to <paramref name="notices"/>.</summary>
    IStarvingAction Create(int processId, TimeSpan interval, TextWriter notices, TimeProvider time);

    /// <summary>Throws a usage error for a bad setting.</summary>
    void Validate();
}
