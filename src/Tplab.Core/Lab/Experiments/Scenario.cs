using Tplab.Launch;

namespace Tplab.Lab.Experiments;

/// <summary>One run of the lab: a variant of the target, its pool settings, and a load profile.</summary>
public sealed record Scenario
{
    /// <summary>The experiment this scenario belongs to, e.g. <c>ab-100</c>.</summary>
    public required string Experiment { get; init; }

    /// <summary>Id within the experiment, e.g. <c>sleep-min100</c>; matches the seed figures' ids.</summary>
    public required string Id { get; init; }

    /// <summary>The built-in target's route without the slash, e.g. <c>sleep</c>; null for the user's service.</summary>
    public string? Variant { get; init; }

    /// <summary>The user's service: the requests to send, with their weights; empty for the built-in target.</summary>
    public IReadOnlyList<RequestSpec> Requests { get; init; } = [];

    /// <summary>How long each handler waits (<c>?ms=</c>).</summary>
    public int WaitMs { get; init; } = 1000;

    /// <summary>The target's thread-pool settings.</summary>
    public ThreadPoolSettings ThreadPool { get; init; } = ThreadPoolSettings.Default;

    /// <summary>The load.</summary>
    public required LoadProfile Load { get; init; }

    /// <summary>Longest the scenario may take before the lab stops it (load, drain and capture included).</summary>
    public TimeSpan Deadline { get; init; } = TimeSpan.FromMinutes(3);

    /// <summary>The static findings this scenario's load checks (a plan written by <c>tplab scan --plan</c>); empty otherwise.</summary>
    public IReadOnlyList<FindingCheck> Checks { get; init; } = [];

    /// <summary>False for a scenario a plan switches off (<c>enabled: false</c>): read and reported, never run.</summary>
    public bool Enabled { get; init; } = true;

    /// <summary>The variants that wait on the database.</summary>
    public bool NeedsDatabase => Variant?.StartsWith("db-", StringComparison.Ordinal) == true;

    /// <summary>The path and query the load requests: the variant's route, else the first request's path.</summary>
    public string PathAndQuery => Variant is { } v ? $"/{v}?ms={WaitMs}" : Requests[0].Path;

    /// <summary>A name given in a plan file; null for the seed experiments, whose labels come from variant and settings.</summary>
    public string? Name { get; init; }

    /// <summary>A label for tables: the plan's name, else the variant and its pool settings.</summary>
    public string Label => Name ?? (ThreadPool == ThreadPoolSettings.Default ? What : $"{What} ({ThreadPool.Label()})");

    private string What => Variant ?? Id;
}
