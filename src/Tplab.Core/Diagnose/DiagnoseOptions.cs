using System.Globalization;
using Tplab.Common;

namespace Tplab.Diagnose;

/// <summary>Options of a diagnosis; defaults are stated on each property and checked by <see cref="Validated"/>.</summary>
public sealed record DiagnoseOptions
{
    // Users read these numbers: a dot whatever the machine's culture.
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// <summary>Smallest capture that still sees a few samples per blocked thread.</summary>
    public static readonly TimeSpan MinDuration = TimeSpan.FromMilliseconds(200);

    /// <summary>Longest capture: the sample profiler writes about 1 000 stacks per thread per second.</summary>
    public static readonly TimeSpan MaxDuration = TimeSpan.FromMinutes(2);

    /// <summary>How long to record stacks (default 5 s; 200 ms to 2 min).</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// A group is reported as a culprit only when it holds at least this many pool threads on average over the
    /// capture (default 0.2): a healthy service has pool threads in a socket send for a millisecond now and then.
    /// </summary>
    public double MinimumThreads { get; init; } = 0.2;

    /// <summary>Frames kept in each culprit's sample stack (default 14; 4 to 200).</summary>
    public int StackFrames { get; init; } = 14;

    /// <summary>Extra namespace or module prefixes to treat as library code (default none), for in-house frameworks.</summary>
    public IReadOnlyList<string> LibraryPrefixes { get; init; } = [];

    /// <summary>How long to wait for the runtime's rundown (method names) after the capture (default 30 s).</summary>
    public TimeSpan RundownTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Watch the pool (threads, queue, injections, verdict) during the capture (default true).</summary>
    public bool WatchPool { get; init; } = true;

    /// <summary>Sampling interval of that watch (default 500 ms; the watch needs at least 250 ms).</summary>
    public TimeSpan PoolInterval { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>Where to keep the raw .nettrace of the capture (default null: deleted), to share it and re-read it with <c>--trace</c>.</summary>
    public string? KeepTrace { get; init; }

    /// <summary>Time source for measuring the capture and the answer (default the system clock).</summary>
    public TimeProvider Time { get; init; } = TimeProvider.System;

    /// <summary>These options, or a usage error naming the first bad value.</summary>
    public DiagnoseOptions Validated()
    {
        if (Duration < MinDuration || Duration > MaxDuration)
        {
            throw TplabException.Usage(string.Create(Inv, $"--duration must be between {MinDuration.TotalSeconds:0.###}s and {MaxDuration.TotalSeconds:0}s, got {Duration.TotalSeconds:0.###}s"));
        }
        if (MinimumThreads is < 0 or > 10_000 || double.IsNaN(MinimumThreads))
        {
            throw TplabException.Usage(string.Create(Inv, $"the minimum blocked threads must be between 0 and 10000, got {MinimumThreads}"));
        }
        if (StackFrames is < 4 or > 200)
        {
            throw TplabException.Usage(string.Create(Inv, $"the stack length must be between 4 and 200 frames, got {StackFrames}"));
        }
        return this;
    }
}
