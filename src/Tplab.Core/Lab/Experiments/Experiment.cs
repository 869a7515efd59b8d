namespace Tplab.Lab.Experiments;

/// <summary>A ratio that carries an experiment's lesson, e.g. blocking vs async mean latency.</summary>
/// <param name="Label">What the ratio shows, in words.</param>
/// <param name="Numerator">Scenario id on top (usually the blocking one).</param>
/// <param name="Denominator">Scenario id below (usually the async or tuned one).</param>
public sealed record Lesson(string Label, string Numerator, string Denominator);

/// <summary>One of the seeds' experiments: its scenarios, how it was scaled, and the ratios that carry its lesson.</summary>
public sealed record Experiment
{
    /// <summary>Name used on the command line, e.g. <c>ab-100</c>.</summary>
    public required string Name { get; init; }

    /// <summary>One-line title.</summary>
    public required string Title { get; init; }

    /// <summary>Seed files it reproduces.</summary>
    public required IReadOnlyList<string> Seeds { get; init; }

    /// <summary>The scenarios, in the order they run.</summary>
    public required IReadOnlyList<Scenario> Scenarios { get; init; }

    /// <summary>How this profile differs from the seed's parameters ("as published" for --full).</summary>
    public required string Scaling { get; init; }

    /// <summary>Ratios to compute between scenarios.</summary>
    public IReadOnlyList<Lesson> Lessons { get; init; } = [];

    /// <summary>Background known before running (the seed's runtime and machine), each starting "Background:"; never a prediction of this run.</summary>
    public IReadOnlyList<string> RuntimeNotes { get; init; } = [];

    /// <summary>The user's service the scenarios load; null for tplab's built-in target.</summary>
    public Launch.Service.ServiceDefinition? Service { get; init; }

    /// <summary>A plan's scenarios switched off (<c>enabled: false</c>): kept so their findings are reported as not run, never run.</summary>
    public IReadOnlyList<Scenario> SwitchedOff { get; init; } = [];

    /// <summary>Findings with no endpoint of their own (hosted service, timer, DI factory): checked by watching the service under every scenario's load.</summary>
    public IReadOnlyList<FindingCheck> Watch { get; init; } = [];

    /// <summary>Whether any scenario waits on the database.</summary>
    public bool NeedsDatabase => Scenarios.Any(s => s.NeedsDatabase);
}
