using System.Globalization;
using Tplab.Common;

namespace Tplab.Watch.Delay;

/// <summary>How the scheduling delay is measured (<c>--delay</c>).</summary>
public enum DelayMode
{
    /// <summary>Not measured: only the estimate (queue ÷ completions per second).</summary>
    Off,

    /// <summary>
    /// The events switched on in windows, so their cost stays within <see cref="DelayOptions.EventBudgetPerSecond"/>:
    /// always on while the pool is slow (few events), one window in several when it is busy.
    /// </summary>
    Sampled,

    /// <summary>The events on for the whole watch, whatever they cost.</summary>
    Continuous,
}

/// <summary>The scheduling-delay measurement's settings; the defaults hold the target's cost near 1% at 20,000 requests/s (BENCHMARKS.md).</summary>
public sealed record DelayOptions
{
    /// <summary>The names of <c>--delay</c>.</summary>
    public static readonly IReadOnlyList<string> Modes = ["sampled", "continuous", "off"];

    /// <summary>Default <see cref="DelayMode.Sampled"/>.</summary>
    public DelayMode Mode { get; init; } = DelayMode.Sampled;

    /// <summary>How long each window stays on (default 1 s).</summary>
    public TimeSpan Window { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Events per second, averaged over windows and gaps, that sampling allows (default 10,000: each costs the target
    /// about a microsecond). A window that saw more is followed by a gap long enough to bring the average down.
    /// </summary>
    public double EventBudgetPerSecond { get; init; } = 10_000;

    /// <summary>The longest gap between two windows (default 9 s), so a busy pool is still measured every 10 s.</summary>
    public TimeSpan MaxGap { get; init; } = TimeSpan.FromSeconds(9);

    /// <summary>Parses <c>--delay</c>: sampled, continuous or off.</summary>
    public static DelayOptions Parse(string text) => text switch
    {
        "sampled" => new DelayOptions(),
        "continuous" => new DelayOptions { Mode = DelayMode.Continuous },
        "off" => new DelayOptions { Mode = DelayMode.Off },
        _ => throw TplabException.Usage($"--delay must be one of {string.Join(", ", Modes)}, got '{text}'"),
    };

    /// <summary>The gap to leave after a window of <paramref name="window"/> that saw <paramref name="events"/> events.</summary>
    public TimeSpan GapAfter(long events, TimeSpan window)
    {
        if (Mode != DelayMode.Sampled || window <= TimeSpan.Zero)
        {
            return TimeSpan.Zero;
        }
        var rate = events / window.TotalSeconds;
        var gap = rate <= EventBudgetPerSecond ? TimeSpan.Zero : window * (rate / EventBudgetPerSecond - 1);
        return gap > MaxGap ? MaxGap : gap;
    }

    /// <summary>These options, or a usage error.</summary>
    public DelayOptions Validated()
    {
        if (Window < TimeSpan.FromMilliseconds(100) || EventBudgetPerSecond <= 0 || MaxGap < TimeSpan.Zero)
        {
            throw TplabException.Usage(string.Create(CultureInfo.InvariantCulture,
                $"the delay's window must be at least 0.1 s, its budget above 0 and its gap not negative (got {Window.TotalSeconds} s, {EventBudgetPerSecond}/s, {MaxGap.TotalSeconds} s)"));
        }
        return this;
    }
}
