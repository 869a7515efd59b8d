using System.Text.Json;
using System.Text.Json.Nodes;

namespace Tplab.Lab.Comparing;

/// <summary><c>tplab compare --format json</c> (schema in docs/lab.md, "Comparing runs").</summary>
public static class ComparisonJson
{
    /// <summary>The comparison as one JSON object.</summary>
    public static JsonObject Build(Comparison c) => new()
    {
        ["schemaVersion"] = 1,
        ["a"] = c.A.Path,
        ["b"] = c.B.Path,
        ["unfinishedA"] = c.A.Unfinished,
        ["unfinishedB"] = c.B.Unfinished,
        ["thresholdPercent"] = c.ThresholdPercent,
        ["worse"] = c.AnyWorse,
        ["scenarios"] = new JsonArray([.. c.Scenarios.Select(s => new JsonObject
        {
            ["scenario"] = s.Key,
            ["scenarioB"] = s.KeyB,
            ["settingsA"] = s.SettingsA,
            ["settingsB"] = s.SettingsB,
            ["label"] = s.Label,
            ["statusA"] = s.StatusA,
            ["statusB"] = s.StatusB,
            ["verdict"] = ComparisonText.Verdict(s.Verdict),
            ["reason"] = s.Reason,
            ["figures"] = new JsonObject(s.Figures.Select(f => KeyValuePair.Create(f.Name, (JsonNode?)new JsonObject
            {
                ["a"] = Side(f.A), ["b"] = Side(f.B), ["changePercent"] = Round(f.Percent), ["judged"] = f.Judged,
                ["change"] = ComparisonText.Verdict(f.Change),
            }))),
        })]),
        ["onlyInA"] = new JsonArray([.. c.OnlyInA.Select(k => JsonValue.Create(k))]),
        ["onlyInB"] = new JsonArray([.. c.OnlyInB.Select(k => JsonValue.Create(k))]),
    };

    /// <summary>Writes the JSON, indented.</summary>
    public static void Write(Comparison c, TextWriter w) => w.WriteLine(Build(c).ToJsonString(new JsonSerializerOptions { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }));

    private static JsonObject? Side(Figure? f) => f is null ? null : new JsonObject
    {
        ["value"] = Round(f.Value), ["min"] = Round(f.Min), ["max"] = Round(f.Max), ["runs"] = f.Runs,
    };

    private static double? Round(double? v) => v is double d ? Math.Round(d, 3) : null;
}
