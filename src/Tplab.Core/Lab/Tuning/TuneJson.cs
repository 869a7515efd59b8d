using System.Text.Json.Nodes;
using Tplab.Blocking;
using Tplab.Launch;

namespace Tplab.Lab.Tuning;

/// <summary>tune.json and <c>tplab tune --format json</c> (schema in docs/tune.md).</summary>
public static class TuneJson
{
    /// <summary>The result as one JSON object.</summary>
    public static JsonObject Build(TuneResult r)
    {
        var o = r.Options;
        return new JsonObject
        {
            ["schemaVersion"] = 1,
            ["tool"] = "tplab " + typeof(TuneJson).Assembly.GetName().Version?.ToString(3),
            ["service"] = o.Service?.Describe() ?? $"tplab's target {o.Scenario.PathAndQuery}",
            ["load"] = o.Scenario.Load.Describe(),
            ["objective"] = o.Objective.ToString(),
            ["objectiveFigure"] = o.Objective.Figure,
            ["objectiveBoundMs"] = o.Objective.BoundMs,
            ["cores"] = Environment.ProcessorCount,
            ["defaultMinThreads"] = r.DefaultMinThreads,
            ["defaultMeets"] = r.DefaultMeets,
            ["estimate"] = r.Estimate is { } e ? new JsonObject
            {
                ["threads"] = e.Threads, ["arrivalPerSecond"] = Math.Round(e.ArrivalPerSecond, 3), ["holdSeconds"] = Math.Round(e.HoldSeconds, 4), ["explanation"] = e.Explanation,
            } : null,
            ["recommendedMinThreads"] = r.RecommendedMinThreads,
            ["highestFailingMinThreads"] = r.HighestFailing,
            ["interrupted"] = r.Interrupted,
            ["trials"] = new JsonArray([.. r.Trials.Select(Trial)]),
            ["knobsWithoutEffect"] = new JsonArray([.. r.KnobsWithoutEffect.Select(t => JsonValue.Create(t.Knob))]),
            ["culprits"] = new JsonArray([.. r.Culprits.Select(c => new JsonObject
            {
                ["blockingCall"] = c.BlockingCall, ["userFrame"] = c.UserFrame, ["threads"] = Math.Round(c.Threads, 2), ["advice"] = c.Advice,
            })]),
            ["settings"] = new JsonArray([.. (r.RecommendedMinThreads is int n ? ThreadPoolForms.PasteReady(n) : []).Select(s => new JsonObject { ["where"] = s.Where, ["text"] = s.Text })]),
            ["advice"] = TuneAdvice.RealFix(r),
        };
    }

    /// <summary>Writes the JSON, indented.</summary>
    public static void Write(TuneResult r, TextWriter w) => w.WriteLine(Build(r).ToJsonString(new System.Text.Json.JsonSerializerOptions { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }));

    private static JsonObject Trial(TuneTrial t) => new()
    {
        ["trial"] = t.Number,
        ["purpose"] = t.Purpose.ToString().ToLowerInvariant(),
        ["minThreads"] = t.MinThreads,
        ["knob"] = t.Knob,
        ["meets"] = t.Meets,
        ["why"] = t.Why,
        ["objectiveMs"] = Round(t.ObjectiveMs),
        ["status"] = char.ToLowerInvariant(t.Figures.Status.ToString()[0]) + t.Figures.Status.ToString()[1..],
        ["requests"] = t.Figures.Requests,
        ["failed"] = t.Figures.Failed,
        ["meanMs"] = Round(t.Figures.MeanMs),
        ["p50Ms"] = Round(t.Figures.P50Ms),
        ["p99Ms"] = Round(t.Figures.P99Ms),
        ["maxMs"] = Round(t.Figures.MaxMs),
        ["requestsPerSecond"] = Round(t.Figures.RequestsPerSecond),
        ["threadsPeak"] = t.Figures.ThreadsPeak,
        ["injections"] = t.Figures.Injections,
        ["peakRssMb"] = t.Figures.PeakRssMb,
        ["cpuSeconds"] = t.Figures.CpuSeconds,
    };

    private static double? Round(double? v) => v is double d ? Math.Round(d, 3) : null;
}
