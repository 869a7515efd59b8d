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

    /// <summary>The seed's runtime line for an experiment, e.g. "ASP.NET Core 3.1, macOS, 4 cores".</summary>
    public string? Runtime(string experiment) => _experiments.TryGetValue(experiment, out var e) ? (string?)e["runtime"] : null;

    /// <summary>A published figure, or null.</summary>
    public double? Figure(string experiment, string scenario, string field) =>
        For(experiment, scenario)?["figures"]?[field]?.GetValue<double>();

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
