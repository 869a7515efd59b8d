using Tplab.Watch.Output;

namespace Tplab.Watch.Running;

/// <summary>One record at a time into a sink shared by several sampling threads.</summary>
internal sealed class SynchronizedSink(IWatchSink inner) : IWatchSink
{
    private readonly Lock _gate = new();

    public void OnInjection(ThreadPoolInjection injection)
    {
        lock (_gate)
        {
            inner.OnInjection(injection);
        }
    }

    public void OnSample(ThreadPoolSample sample)
    {
        lock (_gate)
        {
            inner.OnSample(sample);
        }
    }

    public void OnCompleted(PoolTimeline timeline)
    {
        lock (_gate)
        {
            inner.OnCompleted(timeline);
        }
    }
}
