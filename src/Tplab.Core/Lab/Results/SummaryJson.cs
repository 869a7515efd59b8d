using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;

namespace Tplab.Lab.Results;

/// <summary>
/// A results folder's summary.json (docs/schemas/summary.schema.json): the run, its experiments, and every scenario
/// with its load, pool, cost, repeats and culprits. Written by <see cref="ResultsWriter"/>, read by <c>compare</c>
/// (<see cref="Comparing.ResultsFile"/>) and by the report page, all through these records.
/// </summary>
public sealed record SummaryJson
{
    /// <summary>
    /// The version written; bumped when a field changes meaning or goes away. A scenario's <c>verdict</c> was written
    /// <c>lockcontention</c>, <c>cpusaturated</c> before the typed schema, against the words docs/watch.md gives: a
    /// defect, fixed without a new version; both spellings read.
    /// </summary>
    public const int CurrentSchema = 1;

    [JsonRequired]
    public int SchemaVersion { get; init; } = CurrentSchema;

    /// <summary>"tplab 0.1.0".</summary>
    public string Tool { get; init; } = "";

    /// <summary>ISO 8601 with offset.</summary>
    public string? StartedAt { get; init; }

    /// <summary>When this file was last rewritten (after every experiment).</summary>
    public string? UpdatedAt { get; init; }

    /// <summary>quick, full or plan.</summary>
    public string Profile { get; init; } = "";

    public string RuntimeVersion { get; init; } = "";

    public int Cores { get; init; }

    public string Os { get; init; } = "";

    public bool Interrupted { get; init; }

    public IReadOnlyList<SkippedJson> Skipped { get; init; } = [];

    public IReadOnlyList<ExperimentJson> Experiments { get; init; } = [];

    [JsonRequired]
    public IReadOnlyList<ScenarioJson> Scenarios { get; init; } = [];

    /// <summary>The summary of <paramref name="lab"/> as it stands at <paramref name="now"/>.</summary>
    public static SummaryJson From(LabResult lab, LabOptions options, SeedFigures seeds, DateTimeOffset startedAt, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(lab);
        ArgumentNullException.ThrowIfNull(options);
        return new()
        {
            Tool = "tplab " + typeof(SummaryJson).Assembly.GetName().Version?.ToString(3),
            StartedAt = startedAt.ToString("O", CultureInfo.InvariantCulture),
            UpdatedAt = now.ToString("O", CultureInfo.InvariantCulture),
            Profile = options.PlanPath is null ? options.Profile.ToString().ToLowerInvariant() : "plan",
            RuntimeVersion = RuntimeInformation.FrameworkDescription,
            Cores = Environment.ProcessorCount,
            Os = RuntimeInformation.OSDescription,
            Interrupted = lab.Interrupted,
            Skipped = [.. lab.Skipped.Select(s => new SkippedJson(s.Experiment, s.Reason))],
            Experiments = [.. lab.Experiments.Select(e => ExperimentJson.From(e, seeds))],
            // A plan's experiment never shows seed figures, whatever its name.
            Scenarios = [.. lab.Experiments.SelectMany(e => e.Scenarios.Select(s => ScenarioJson.From(s, e.Experiment.Seeds.Count > 0 ? seeds : null)))],
        };
    }

    /// <summary>The figures that get a spread in summary.json, by their JSON name: what compare and the lessons read.</summary>
    public static readonly IReadOnlyList<(string Name, Func<RunFigures, double?> Figure)> SpreadFigures =
    [
        ("meanMs", f => f.MeanMs), ("p50Ms", f => f.P50Ms), ("p99Ms", f => f.P99Ms), ("maxMs", f => f.MaxMs),
        ("requestsPerSecond", f => f.RequestsPerSecond), ("failed", f => f.Failed), ("threadsPeak", f => f.ThreadsPeak),
        ("injections", f => f.Injections), ("peakRssMb", f => f.PeakRssMb), ("cpuSeconds", f => f.CpuSeconds),
    ];
}

/// <summary>An experiment that did not run, and why.</summary>
public sealed record SkippedJson(string Experiment, string Reason);

/// <summary>The source-generated serializer of summary.json: figures to three decimals unless a property says otherwise.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(SummaryJson))]
internal sealed partial class SummaryJsonContext : JsonSerializerContext
{
    /// <summary>Indented, as summary.json is written.</summary>
    public static SummaryJsonContext Indented { get; } = new(TplabJson.Options(indented: true, numbers: new Round3()));
}
