using Tplab.Watch.Export;
using Tplab.Watch.Output;

namespace Tplab.Watch.Running;

/// <summary>One process of a watch: its <see cref="ThreadPoolWatch"/>, how it is named in exports, its sinks and its on-starving action.</summary>
internal sealed class FleetMember(ThreadPoolWatch watch, WatchedProcess process, WatchSinks sinks, IStarvingAction? action)
{
    public ThreadPoolWatch Watch { get; } = watch;

    public WatchedProcess Process { get; } = process;

    public WatchSinks Sinks { get; } = sinks;

    public IStarvingAction? Action { get; } = action;

    /// <summary>The timeline, once the member was stopped.</summary>
    public PoolTimeline? Timeline { get; set; }

    /// <summary>True when the process closed its diagnostic connection while it still ran (its watch ended with it).</summary>
    public bool SessionLost { get; set; }

    public int ProcessId => Watch.ProcessId;
}

/// <summary>Completes at the first sample of any process whose verdict holds the pool's threads (<c>--fail-on starving</c>).</summary>
internal sealed class StarvingSignal : IWatchSink
{
    private readonly TaskCompletionSource _seen = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task Seen => _seen.Task;

    public string Evidence { get; private set; } = "";

    /// <summary>The verdict that ended the watch: <c>starving</c>, or <c>lock-contention</c> (threads held by a lock).</summary>
    public string Verdict { get; private set; } = "";

    public int ProcessId { get; private set; }

    /// <summary>A sink for one process that reports to this signal.</summary>
    public IWatchSink For(int processId) => new Member(this, processId);

    public void OnInjection(ThreadPoolInjection injection)
    {
    }

    public void OnSample(ThreadPoolSample sample) => Report(sample.ProcessId, sample);

    public void OnCompleted(PoolTimeline timeline)
    {
    }

    private void Report(int processId, ThreadPoolSample sample)
    {
        lock (_seen)
        {
            if (Verdicts.PoolVerdicts.ThreadsHeld(sample.Verdict) && !_seen.Task.IsCompleted)
            {
                ProcessId = processId;
                Verdict = Verdicts.PoolVerdicts.ToWord(sample.Verdict);
                Evidence = $"at {sample.Offset.TotalSeconds.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture)} s: {sample.Evidence}";
                _seen.TrySetResult();
            }
        }
    }

    private sealed class Member(StarvingSignal signal, int processId) : IWatchSink
    {
        public void OnInjection(ThreadPoolInjection injection)
        {
        }

        public void OnSample(ThreadPoolSample sample) => signal.Report(processId, sample);

        public void OnCompleted(PoolTimeline timeline)
        {
        }
    }
}
