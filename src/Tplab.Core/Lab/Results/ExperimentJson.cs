using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Lab.Findings;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;

namespace Tplab.Lab.Results;

/// <summary>One experiment of summary.json: what it reproduces, the seed's runtime, the service, the lessons.</summary>
public sealed record ExperimentJson
{
    public string Name { get; init; } = "";

    public string Title { get; init; } = "";

    /// <summary>The seed files it reproduces (empty for a plan).</summary>
    public IReadOnlyList<string> Seeds { get; init; } = [];

    public string? SeedRuntime { get; init; }

    public string Scaling { get; init; } = "";

    /// <summary>The user's service (a plan's <c>service:</c>); null for tplab's target.</summary>
    public ServiceJson? Service { get; init; }

    public IReadOnlyList<string> RuntimeNotes { get; init; } = [];

    public IReadOnlyList<string> Observations { get; init; } = [];

    public IReadOnlyList<LessonJson> Lessons { get; init; } = [];

    /// <summary>A plan from <c>tplab scan --plan</c>: each static finding beside what the run saw; left out (null) when the plan checks none, as in files written before it.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<FindingJson>? Findings { get; init; }

    /// <summary>The JSON of <paramref name="e"/>.</summary>
    public static ExperimentJson From(ExperimentResult e, SeedFigures seeds)
    {
        ArgumentNullException.ThrowIfNull(e);
        ArgumentNullException.ThrowIfNull(seeds);
        var x = e.Experiment;
        return new()
        {
            Name = x.Name, Title = x.Title, Seeds = x.Seeds, SeedRuntime = x.Seeds.Count > 0 ? seeds.Runtime(x.Name)?.Description : null,
            Scaling = x.Scaling,
            Service = x.Service is { } s ? new ServiceJson(s.Command, s.WorkingDirectory, s.Url?.ToString(), s.ProcessId, s.Command is null ? null : Words.Camel(s.EffectiveMinThreadsVia)) : null,
            RuntimeNotes = x.RuntimeNotes, Observations = e.Observations,
            Lessons = [.. e.Lessons.Select(LessonJson.From)],
            Findings = FindingVerdicts.Of(e) is { Count: > 0 } findings ? [.. findings.Select(FindingJson.From)] : null,
        };
    }
}

/// <summary>The user's service: started by command, or attached by pid and URL.</summary>
public sealed record ServiceJson(string? Command, string? WorkingDirectory, string? Url, int? Pid, string? MinThreadsVia);

/// <summary>A lesson: the ratio of two scenarios' means in this run and in the seed, and whether they have the same shape.</summary>
public sealed record LessonJson
{
    public string Label { get; init; } = "";

    /// <summary>The scenario divided.</summary>
    public string Numerator { get; init; } = "";

    /// <summary>The scenario divided by.</summary>
    public string Denominator { get; init; } = "";

    public double? Ours { get; init; }

    /// <summary>[low, high] of this run's ratio (with repeats); null when not compared.</summary>
    public IReadOnlyList<double>? OursRange { get; init; }

    public double? Seed { get; init; }

    public IReadOnlyList<double>? SeedRange { get; init; }

    /// <summary>same, different, mixed, notCompared (<see cref="ShapeMatch"/>).</summary>
    public string Shape { get; init; } = "";

    /// <summary>Why this run's ratio is left out; null when both scenarios completed.</summary>
    public string? Incomplete { get; init; }

    /// <summary>The JSON of <paramref name="l"/>.</summary>
    public static LessonJson From(LessonResult l)
    {
        ArgumentNullException.ThrowIfNull(l);
        return new()
        {
            Label = l.Lesson.Label, Numerator = l.Lesson.Numerator, Denominator = l.Lesson.Denominator,
            Ours = l.Ours, OursRange = Range(l.OursSpread), Seed = l.Seed, SeedRange = Range(l.SeedSpread),
            Shape = Words.Camel(l.Match), Incomplete = l.Incomplete,
        };
    }

    private static double[]? Range(RatioSpread? s) => s is null ? null : [s.Low, s.High];
}
