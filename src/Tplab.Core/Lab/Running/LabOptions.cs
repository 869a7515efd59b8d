using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Launch;
using Tplab.Watch;

namespace Tplab.Lab.Running;

/// <summary>What <c>tplab run</c> runs and where it writes. Defaults: the quick profile, every experiment.</summary>
public sealed record LabOptions
{
    /// <summary>Quick (about three minutes on two cores, the default) or the seeds' exact parameters.</summary>
    public LabProfile Profile { get; init; } = LabProfile.Quick;

    /// <summary>Experiments to run by name; empty runs all four.</summary>
    public IReadOnlyList<string> Experiments { get; init; } = [];

    /// <summary>Only scenarios of these variants (routes); empty keeps all.</summary>
    public IReadOnlyList<string> Variants { get; init; } = [];

    /// <summary>Pool settings applied to every scenario instead of the experiments' own; null keeps theirs.</summary>
    public ThreadPoolSettings? ThreadPoolOverride { get; init; }

    /// <summary>A plan file (JSON or YAML) to run instead of the seed experiments.</summary>
    public string? PlanPath { get; init; }

    /// <summary>Folder under which <c>&lt;timestamp&gt;/</c> is created. Default <c>results</c>.</summary>
    public string ResultsRoot { get; init; } = "results";

    /// <summary>An existing database for the db variants; null starts a private PostgreSQL when installed.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>Run <c>diagnose</c> during starving scenarios. Default true.</summary>
    public bool Diagnose { get; init; } = true;

    /// <summary>How often the target's pool is sampled (at least 250 ms, at most 1 h). Default 0.5 s: twice seed 004's rate, so that scenarios of a second or two still get samples.</summary>
    public TimeSpan WatchInterval { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>How many times each scenario runs, each on a fresh process; tables then show the mean and the range. Default 1.</summary>
    public int Repeat { get; init; } = 1;

    /// <summary>The clock for timestamps of the results folder.</summary>
    public TimeProvider Time { get; init; } = TimeProvider.System;

    /// <summary>These options, or a usage error naming the first bad value (checked again by <see cref="LabRunner.RunAsync"/>).</summary>
    public LabOptions Validated()
    {
        if (WatchInterval < WatchOptions.MinInterval || WatchInterval > TimeSpan.FromHours(1))
        {
            throw TplabException.Usage(
                $"--interval must be between {DurationText.Format(WatchOptions.MinInterval)} and 1h, got {DurationText.Format(WatchInterval)}");
        }
        if (string.IsNullOrWhiteSpace(ResultsRoot))
        {
            throw TplabException.Usage("--results must name a folder");
        }
        return this;
    }
}
