using System.Runtime.InteropServices;
using System.Text.Json.Nodes;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load.Formats;

namespace Tplab.Lab.Results;

/// <summary>Builds summary.json (schema in docs/lab.md) from a lab result.</summary>
internal static class SummaryJson
{
    public const int SchemaVersion = 1;

    public static JsonObject Build(LabResult lab, LabOptions options, SeedFigures seeds, DateTimeOffset startedAt, DateTimeOffset now) => new()
    {
        ["schemaVersion"] = SchemaVersion,
        ["tool"] = "tplab " + typeof(SummaryJson).Assembly.GetName().Version?.ToString(3),
        ["startedAt"] = startedAt.ToString("O", System.Globalization.CultureInfo.InvariantCulture),
        ["updatedAt"] = now.ToString("O", System.Globalization.CultureInfo.InvariantCulture),
        ["profile"] = options.PlanPath is null ? options.Profile.ToString().ToLowerInvariant() : "plan",
        ["runtimeVersion"] = RuntimeInformation.FrameworkDescription,
        ["cores"] = Environment.ProcessorCount,
        ["os"] = RuntimeInformation.OSDescription,
        ["interrupted"] = lab.Interrupted,
        ["skipped"] = new JsonArray([.. lab.Skipped.Select(s => new JsonObject { ["experiment"] = s.Experiment, ["reason"] = s.Reason })]),
        ["experiments"] = new JsonArray([.. lab.Experiments.Select(e => Experiment(e, seeds))]),
        // A plan's experiment never shows seed figures, whatever its name.
        ["scenarios"] = new JsonArray([.. lab.Experiments.SelectMany(e => e.Scenarios.Select(s => Scenario(s, e.Experiment.Seeds.Count > 0 ? seeds : null)))]),
    };

    private static JsonObject Experiment(ExperimentResult e, SeedFigures seeds) => new()
    {
        ["name"] = e.Experiment.Name,
        ["title"] = e.Experiment.Title,
        ["seeds"] = new JsonArray([.. e.Experiment.Seeds.Select(s => JsonValue.Create(s))]),
        ["seedRuntime"] = e.Experiment.Seeds.Count > 0 ? seeds.Runtime(e.Experiment.Name)?.Description : null,
        ["scaling"] = e.Experiment.Scaling,
        ["runtimeNotes"] = new JsonArray([.. e.Experiment.RuntimeNotes.Select(n => JsonValue.Create(n))]),
        ["observations"] = new JsonArray([.. e.Observations.Select(n => JsonValue.Create(n))]),
        ["lessons"] = new JsonArray([.. e.Lessons.Select(l => new JsonObject
        {
            ["label"] = l.Lesson.Label, ["numerator"] = l.Lesson.Numerator, ["denominator"] = l.Lesson.Denominator,
            ["ours"] = Round(l.Ours), ["oursRange"] = Range(l.OursSpread),
            ["seed"] = Round(l.Seed), ["seedRange"] = Range(l.SeedSpread),
            ["shape"] = Camel(l.Match.ToString()), ["incomplete"] = l.Incomplete,
        })]),
    };

    private static JsonObject Scenario(ScenarioResult r, SeedFigures? seeds)
    {
        var s = r.Scenario;
        var t = r.Timeline;
        return new JsonObject
        {
            ["experiment"] = s.Experiment,
            ["scenario"] = s.Id,
            ["label"] = s.Label,
            ["variant"] = s.Variant,
            ["waitMs"] = s.WaitMs,
            ["minThreads"] = s.ThreadPool.MinThreads,
            ["knobs"] = new JsonObject(s.ThreadPool.Knobs.Select(k => KeyValuePair.Create(k.Key, (JsonNode?)JsonValue.Create(k.Value)))),
            ["loadProfile"] = s.Load.Describe(),
            ["status"] = Camel(r.Status.ToString()),
            ["error"] = r.Error,
            ["load"] = r.Load is null ? null : LoadJson.ToJsonObject(r.Load.Summary),
            ["timeline"] = t is null ? null : new JsonObject
            {
                ["samples"] = t.Samples.Count,
                ["threadsStart"] = t.ThreadsStart,
                ["threadsPeak"] = t.ThreadsPeak,
                ["osThreadsPeak"] = t.OsThreadsPeak,
                ["queuePeak"] = t.QueuePeak,
                ["injectionsByReason"] = new JsonObject(t.InjectionsByReason.Select(kv => KeyValuePair.Create(kv.Key, (JsonNode?)JsonValue.Create(kv.Value)))),
                ["processExited"] = t.ProcessExited,
            },
            ["verdict"] = t is null ? null : t.Verdict.ToString().ToLowerInvariant(),
            ["evidence"] = t?.Evidence,
            ["culprits"] = new JsonArray([.. r.Culprits.Select(c => new JsonObject
            {
                ["blockingCall"] = c.BlockingCall, ["userFrame"] = c.UserFrame, ["threads"] = Math.Round(c.Threads, 2), ["share"] = Math.Round(c.Share, 3),
                ["stack"] = new JsonArray([.. c.Stack.Select(f => JsonValue.Create(f))]), ["advice"] = c.Advice,
            })]),
            ["seed"] = seeds?.For(s.Experiment, s.Id)?.DeepClone(),
            ["files"] = new JsonObject
            {
                ["requests"] = ResultsWriter.RelativeFile(s, "requests.csv"),
                ["timeline"] = ResultsWriter.RelativeFile(s, "timeline.jsonl"),
            },
        };
    }

    private static double? Round(double? v) => v is double d ? Math.Round(d, 3) : null;

    private static JsonArray? Range(RatioSpread? s) => s is null ? null : new JsonArray(Math.Round(s.Low, 3), Math.Round(s.High, 3));

    private static string Camel(string name) => char.ToLowerInvariant(name[0]) + name[1..];
}
