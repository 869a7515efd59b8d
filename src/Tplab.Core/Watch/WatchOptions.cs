using System.Globalization;
using Tplab.Common;
using Tplab.Watch.Delay;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch;

/// <summary>How to watch a process's thread pool.</summary>
public sealed record WatchOptions
{
    /// <summary>The shortest interval: below 250 ms the runtime's counters and the 500 ms gate thread say nothing new.</summary>
    public static readonly TimeSpan MinInterval = TimeSpan.FromMilliseconds(250);

    /// <summary>Time between samples (default 1 s, at least 250 ms); also the runtime's counter interval.</summary>
    public TimeSpan Interval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>The verdict rule's thresholds (defaults in docs/watch.md).</summary>
    public VerdictThresholds Thresholds { get; init; } = VerdictThresholds.Default;

    /// <summary>How the scheduling delay is measured (default: sampled windows of the work-item events; docs/watch.md).</summary>
    public DelayOptions Delay { get; init; } = new();

    /// <summary>Receives every record on the watch's sampling thread (renderers, writers); null for none.</summary>
    public IWatchSink? Sink { get; init; }

    /// <summary>Clock of the watch's offsets and intervals (default: the system clock).</summary>
    public TimeProvider Time { get; init; } = TimeProvider.System;

    /// <summary>How long to wait for a started command's runtime to connect (default 30 s).</summary>
    public TimeSpan ConnectTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Validates the ranges; a bad value is a usage error naming it.</summary>
    public WatchOptions Validated()
    {
        if (Interval < MinInterval)
        {
            throw TplabException.Usage(string.Create(CultureInfo.InvariantCulture, $"--interval must be at least {MinInterval.TotalSeconds:0.00} s, got {Interval.TotalSeconds:0.###} s"));
        }
        if (Interval > TimeSpan.FromHours(1))
        {
            throw TplabException.Usage($"--interval must be at most 1 h, got {DurationText.Format(Interval)}");
        }
        Thresholds.Validated();
        Delay.Validated();
        return this;
    }
}
