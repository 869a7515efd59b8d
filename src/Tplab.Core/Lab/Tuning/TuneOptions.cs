using Tplab.Lab.Experiments;
using Tplab.Launch.Service;

namespace Tplab.Lab.Tuning;

/// <summary>What <c>tplab tune</c> tunes: one service, one load shape, one objective (docs/tune.md).</summary>
public sealed record TuneOptions
{
    /// <summary>The scenario whose load is replayed; its own pool settings are replaced by each tried value.</summary>
    public required Scenario Scenario { get; init; }

    /// <summary>The user's service; null for tplab's built-in target.</summary>
    public ServiceDefinition? Service { get; init; }

    /// <summary>The objective a minimum must meet.</summary>
    public required Objective Objective { get; init; }

    /// <summary>Highest minimum the search tries. Default 2,000.</summary>
    public int MaxThreads { get; init; } = 2000;

    /// <summary>The search stops when the failing and meeting values are this close, in percent of the meeting one (at least 1 thread). Default 5.</summary>
    public double PrecisionPercent { get; init; } = 5;

    /// <summary>Knobs tried one at a time at the default minimum, to show whether they help. Default: hill climbing off.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> TryKnobs { get; init; } = DefaultTryKnobs;

    /// <summary>The knobs tried when none are given: hill climbing off, the knob users reach for after the minimum.</summary>
    public static readonly IReadOnlyList<KeyValuePair<string, string>> DefaultTryKnobs = [new("System.Threading.ThreadPool.HillClimbing.Disable", "true")];

    /// <summary>An existing database for the built-in target's db variants; null starts a private PostgreSQL when needed.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>Folder under which the results folder <c>tune-&lt;timestamp&gt;/</c> is created. Default <c>results</c>.</summary>
    public string ResultsRoot { get; init; } = "results";

    /// <summary>How often the pool is sampled during each trial. Default 0.5 s.</summary>
    public TimeSpan WatchInterval { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>The clock.</summary>
    public TimeProvider Time { get; init; } = TimeProvider.System;
}
