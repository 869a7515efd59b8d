using System.Reflection;
using System.Text.Json.Nodes;

namespace Tplab.Lab.Seeds;

/// <summary>
/// The seeds' published figures, transcribed by hand into seed-figures.json with the seed file and the passage
/// each comes from. Only what the write-ups print: a missing figure is null, never estimated.
/// </summary>
public sealed class SeedFigures
{
    private readonly Dictionary<(string Experiment, string Scenario), JsonObject> _scenarios = [];
    private readonly Dictionary<string, JsonObject> _experiments = new(StringComparer.Ordinal);

    private SeedFigures(JsonObject root)
    {
        foreach (var experiment in root["experiments"]!.AsArray().OfType<JsonObject>())
        {
            var name = (string)experiment["experiment"]!;
            _experiments[name] = experiment;
            foreach (var scenario in experiment["scenarios"]!.AsArray().OfType<JsonObject>())
            {
                _scenarios[(name, (string)scenario["scenario"]!)] = scenario;
            }
        }
    }

    /// <summary>The figures shipped with tplab.</summary>
    public static SeedFigures Load()
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("Tplab.SeedFigures.json")
            ?? throw new InvalidOperationException("seed-figures.json is missing from the build");
        return new SeedFigures(JsonNode.Parse(stream)!.AsObject());
    }

    /// <summary>The seed's entry for a scenario (figures, ranges, source, quote, note), or null when the seed has none.</summary>
    public JsonObject? For(string experiment, string scenario) =>
        _scenarios.TryGetValue((experiment, scenario), out var s) ? s : null;

    /// <summary>A published figure, or null.</summary>
    public double? Figure(string experiment, string scenario, string field) =>
        For(experiment, scenario)?["figures"]?[field]?.GetValue<double>();

    /// <summary>
    /// The mean latencies the seed published for a scenario: its one figure, or one per published run (seed 002
    /// printed five runs per variant and named none); empty when it printed none.
    /// </summary>
    public IReadOnlyList<double> MeansMs(string experiment, string scenario)
    {
        if (Figure(experiment, scenario, "meanMs") is double v)
        {
            return [v];
        }
        return For(experiment, scenario)?["runs"] is JsonArray runs
            ? [.. runs.Select(r => r?["meanMs"]?.GetValue<double>()).OfType<double>()]
            : [];
    }

    /// <summary>The seed's runtime in short and whether it injects threads for blocked task waits; null when no seed.</summary>
    public SeedRuntime? Runtime(string experiment) =>
        _experiments.TryGetValue(experiment, out var e) && (string?)e["runtimeName"] is { } name
            ? new SeedRuntime(name, (string?)e["runtime"] ?? name, e["cooperativeBlocking"]?.GetValue<bool>())
            : null;

    /// <summary>A figure, or the middle of its published range when the seed gives only a range (seed 002).</summary>
    public double? FigureOrMidRange(string experiment, string scenario, string field)
    {
        if (Figure(experiment, scenario, field) is double v)
        {
            return v;
        }
        return For(experiment, scenario)?["ranges"]?[field] is JsonArray { Count: 2 } r
            ? (r[0]!.GetValue<double>() + r[1]!.GetValue<double>()) / 2
            : null;
    }
}

/// <summary>The runtime a seed ran on, as its write-up states it.</summary>
/// <param name="Name">In short, e.g. "ASP.NET Core 3.1".</param>
/// <param name="Description">As recorded, with OS and cores where the seed gives them.</param>
/// <param name="CooperativeBlocking">Whether that runtime adds threads for pool threads blocked in a task wait (.NET 6+); null when the seed does not say its version.</param>
public sealed record SeedRuntime(string Name, string Description, bool? CooperativeBlocking);
