using System.Runtime.InteropServices;
using System.Text.Json.Nodes;
using Tplab.Blocking;
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
        ["service"] = e.Experiment.Service is { } service ? new JsonObject
        {
            ["command"] = service.Command, ["workingDirectory"] = service.WorkingDirectory, ["url"] = service.Url?.ToString(),
            ["pid"] = service.ProcessId, ["minThreadsVia"] = service.Command is null ? null : Camel(service.EffectiveMinThreadsVia.ToString()),
        } : null,
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
            ["waitMs"] = s.Variant is null ? null : s.WaitMs,
            ["minThreads"] = s.ThreadPool.MinThreads,
            ["knobs"] = new JsonObject(s.ThreadPool.Knobs.Select(k => KeyValuePair.Create(k.Key, (JsonNode?)JsonValue.Create(k.Value)))),
            ["loadProfile"] = s.Load.Describe(),
            ["status"] = Camel(r.Status.ToString()),
            ["error"] = r.Error,
            ["load"] = r.Load is null ? null : LoadJson.ToJsonObject(r.Load.Summary),
            ["processId"] = t?.ProcessId,
            ["timeline"] = t is null ? null : new JsonObject
            {
                ["samples"] = t.Samples.Count,
                ["threadsStart"] = t.ThreadsStart,
                ["threadsPeak"] = t.ThreadsPeak,
                ["osThreadsPeak"] = t.OsThreadsPeak,
                ["queuePeak"] = t.QueuePeak,
                // The scheduling delay: measured from the work-item events (null when never measured) and estimated.
                ["delayP99PeakMs"] = t.DelayP99PeakMs is { } d ? Math.Round(d, 3) : null,
                ["delayEstimatePeakMs"] = t.EstimatePeakMs is { } e ? Math.Round(e, 3) : null,
                ["delayNote"] = t.DelayNote,
                ["injectionsByReason"] = new JsonObject(t.InjectionsByReason.Select(kv => KeyValuePair.Create(kv.Key, (JsonNode?)JsonValue.Create(kv.Value)))),
                ["processExited"] = t.ProcessExited,
            },
            ["requests"] = s.Requests.Count == 0 ? null : new JsonArray([.. s.Requests.Select(q => new JsonObject
            {
                ["name"] = q.Label, ["method"] = q.Method, ["path"] = q.Path, ["weight"] = q.Weight, ["bodyBytes"] = q.Body.Length,
            })]),
            ["cost"] = r.Cost is { } cost ? new JsonObject { ["peakRssMb"] = cost.PeakRssMb, ["cpuSeconds"] = cost.CpuSeconds } : null,
            ["run"] = r.Run == 0 ? null : r.Run,
            ["repeats"] = r.Runs.Count == 0 ? null : new JsonArray([.. r.Runs.Select(RunJson)]),
            ["spread"] = r.Runs.Count == 0 ? null : SpreadJson(r),
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
                ["requests"] = ResultsWriter.RelativeFile(s, "requests.csv", r.Run),
                ["timeline"] = ResultsWriter.RelativeFile(s, "timeline.jsonl", r.Run),
            },
        };
    }

    private static JsonObject RunJson(RunFigures f) => new()
    {
        ["run"] = f.Run, ["status"] = Camel(f.Status.ToString()), ["requests"] = f.Requests, ["failed"] = f.Failed,
        ["meanMs"] = Round(f.MeanMs), ["p50Ms"] = Round(f.P50Ms), ["p99Ms"] = Round(f.P99Ms), ["maxMs"] = Round(f.MaxMs),
        ["requestsPerSecond"] = Round(f.RequestsPerSecond), ["threadsPeak"] = f.ThreadsPeak, ["injections"] = f.Injections,
        ["peakRssMb"] = f.PeakRssMb, ["cpuSeconds"] = f.CpuSeconds,
    };

    /// <summary>Mean, range and standard deviation over the runs of each figure that compare and the lessons read.</summary>
    private static JsonObject SpreadJson(ScenarioResult r)
    {
        var o = new JsonObject();
        foreach (var (name, figure) in SpreadFigures)
        {
            o[name] = r.SpreadOf(figure) is { } sp
                ? new JsonObject { ["mean"] = Round(sp.Mean), ["min"] = Round(sp.Min), ["max"] = Round(sp.Max), ["stdDev"] = Round(sp.StdDev), ["runs"] = sp.Runs }
                : null;
        }
        return o;
    }

    /// <summary>The figures that get a spread in summary.json, by their JSON name.</summary>
    public static readonly IReadOnlyList<(string Name, Func<RunFigures, double?> Figure)> SpreadFigures =
    [
        ("meanMs", f => f.MeanMs), ("p50Ms", f => f.P50Ms), ("p99Ms", f => f.P99Ms), ("maxMs", f => f.MaxMs),
        ("requestsPerSecond", f => f.RequestsPerSecond), ("failed", f => f.Failed), ("threadsPeak", f => f.ThreadsPeak),
        ("injections", f => f.Injections), ("peakRssMb", f => f.PeakRssMb), ("cpuSeconds", f => f.CpuSeconds),
    ];

    private static double? Round(double? v) => v is double d ? Math.Round(d, 3) : null;

    private static JsonArray? Range(RatioSpread? s) => s is null ? null : new JsonArray(Math.Round(s.Low, 3), Math.Round(s.High, 3));

    private static string Camel(string name) => char.ToLowerInvariant(name[0]) + name[1..];
}
