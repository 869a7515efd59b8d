using System.Text.Json.Serialization;
using Tplab.Common.Json;

namespace Tplab.Lab.Comparing;

/// <summary><c>tplab compare --format json</c> (docs/schemas/compare.schema.json), written and read through this record.</summary>
public sealed record ComparisonJson
{
    /// <summary>The version written; bumped when a field changes meaning or goes away.</summary>
    public const int CurrentSchema = 1;

    [JsonRequired]
    public int SchemaVersion { get; init; } = CurrentSchema;

    /// <summary>A's summary.json.</summary>
    public string A { get; init; } = "";

    /// <summary>B's summary.json.</summary>
    public string B { get; init; } = "";

    public double ThresholdPercent { get; init; }

    /// <summary>Whether any scenario is worse in B.</summary>
    public bool Worse { get; init; }

    [JsonRequired]
    public IReadOnlyList<ScenarioChangeJson> Scenarios { get; init; } = [];

    public IReadOnlyList<string> OnlyInA { get; init; } = [];

    public IReadOnlyList<string> OnlyInB { get; init; } = [];

    /// <summary>The JSON of <paramref name="c"/>.</summary>
    public static ComparisonJson From(Comparison c)
    {
        ArgumentNullException.ThrowIfNull(c);
        return new()
        {
            A = c.A.Path, B = c.B.Path, ThresholdPercent = c.ThresholdPercent, Worse = c.AnyWorse,
            Scenarios = [.. c.Scenarios.Select(s => new ScenarioChangeJson(
                s.Key, s.Label, s.StatusA, s.StatusB, ComparisonText.Verdict(s.Verdict), s.Reason,
                s.Figures.ToDictionary(f => f.Name, f => new FigureChangeJson(SideJson.From(f.A), SideJson.From(f.B), f.Percent, f.Judged, ComparisonText.Verdict(f.Change)), StringComparer.Ordinal)))],
            OnlyInA = c.OnlyInA, OnlyInB = c.OnlyInB,
        };
    }

    /// <summary>Writes the JSON, indented.</summary>
    public static void Write(Comparison c, TextWriter w) => TplabJson.Write(From(c), ComparisonJsonContext.Indented.ComparisonJson, w);
}

/// <summary>One scenario in A and B: its verdict (better, worse, no clear change), why, and every figure.</summary>
public sealed record ScenarioChangeJson(string Scenario, string Label, string StatusA, string StatusB, string Verdict, string Reason, IReadOnlyDictionary<string, FigureChangeJson> Figures);

/// <summary>A figure in A and B and its change in percent; <c>judged</c> when it counts for the verdict.</summary>
public sealed record FigureChangeJson(SideJson? A, SideJson? B, double? ChangePercent, bool Judged, string Change);

/// <summary>A figure on one side: its value (the mean over the runs with --repeat) and the runs' range.</summary>
public sealed record SideJson(
    double Value,
    double? Min,
    double? Max,
    int Runs)
{
    /// <summary>The JSON of <paramref name="f"/>; null for null.</summary>
    public static SideJson? From(Figure? f) => f is null ? null : new(f.Value, f.Min, f.Max, f.Runs);
}

/// <summary>The source-generated serializer of compare's JSON: figures to three decimals.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(ComparisonJson))]
internal sealed partial class ComparisonJsonContext : JsonSerializerContext
{
    /// <summary>Indented, as compare writes it.</summary>
    public static ComparisonJsonContext Indented { get; } = new(TplabJson.Options(indented: true, numbers: new Round3()));
}
