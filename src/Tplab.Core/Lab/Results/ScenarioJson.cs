using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Load.Formats;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Results;

/// <summary>One scenario (one run of it, with --repeat the representative one) of summary.json.</summary>
public sealed record ScenarioJson
{
    [JsonRequired]
    public string Experiment { get; init; } = "";

    /// <summary>The scenario's id within its experiment; compare matches scenarios by experiment/scenario.</summary>
    [JsonRequired]
    public string Scenario { get; init; } = "";

    public string Label { get; init; } = "";

    public string? Variant { get; init; }

    public int? WaitMs { get; init; }

    public int? MinThreads { get; init; }

    public IReadOnlyDictionary<string, string> Knobs { get; init; } = new Dictionary<string, string>();

    public string LoadProfile { get; init; } = "";

    /// <summary>completed, interrupted, deadlineReached or failed.</summary>
    public string Status { get; init; } = "";

    public string? Error { get; init; }

    /// <summary>The load's JSON (the same object as <c>tplab load --format json</c>); null when the load never started.</summary>
    public LoadJson? Load { get; init; }

    public int? ProcessId { get; init; }

    public TimelineJson? Timeline { get; init; }

    public IReadOnlyList<RequestJson>? Requests { get; init; }

    public CostJson? Cost { get; init; }

    /// <summary>Which run this is (1-based) with --repeat; null without.</summary>
    public int? Run { get; init; }

    public IReadOnlyList<RunJson>? Repeats { get; init; }

    /// <summary>With --repeat: mean, range and deviation over the runs of each figure (<see cref="SummaryJson.SpreadFigures"/>).</summary>
    public IReadOnlyDictionary<string, SpreadJson?>? Spread { get; init; }

    /// <summary>The pool's verdict over the scenario (healthy, starving, recovering, lock-contention, cpu-saturated).</summary>
    [JsonConverter(typeof(WordConverter<PoolVerdict>))]
    public PoolVerdict? Verdict { get; init; }

    public string? Evidence { get; init; }

    public IReadOnlyList<CulpritJson> Culprits { get; init; } = [];

    /// <summary>Why no culprit is named, when the hunt ran and named none; absent otherwise (and in files written before it).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? NoCulpritBecause { get; init; }

    /// <summary>The seed's published figures for this scenario, as seed-figures.json records them; null for a plan.</summary>
    public JsonObject? Seed { get; init; }

    public FilesJson? Files { get; init; }

    /// <summary>The JSON of <paramref name="r"/>; <paramref name="seeds"/> null when the experiment has no seed.</summary>
    public static ScenarioJson From(ScenarioResult r, SeedFigures? seeds)
    {
        ArgumentNullException.ThrowIfNull(r);
        var s = r.Scenario;
        var t = r.Timeline;
        return new()
        {
            Experiment = s.Experiment, Scenario = s.Id, Label = s.Label, Variant = s.Variant, WaitMs = s.Variant is null ? null : s.WaitMs,
            MinThreads = s.ThreadPool.MinThreads, Knobs = s.ThreadPool.Knobs.ToDictionary(StringComparer.Ordinal), LoadProfile = s.Load.Describe(),
            Status = Words.Camel(r.Status), Error = r.Error, Load = r.Load is null ? null : LoadJson.From(r.Load.Summary), ProcessId = t?.ProcessId,
            Timeline = t is null ? null : new(t.Samples.Count, t.ThreadsStart, t.ThreadsPeak, t.OsThreadsPeak, t.QueuePeak, t.InjectionsByReason, t.ProcessExited)
            {
                DelayP99PeakMs = t.DelayP99PeakMs, DelayEstimatePeakMs = t.EstimatePeakMs, DelayNote = t.DelayNote,
            },
            Requests = s.Requests.Count == 0 ? null : [.. s.Requests.Select(q => new RequestJson(q.Label, q.Method, q.Path, q.Weight, q.Body.Length))],
            Cost = r.Cost is { } cost ? new(cost.PeakRssMb, cost.CpuSeconds) : null,
            Run = r.Run == 0 ? null : r.Run,
            Repeats = r.Runs.Count == 0 ? null : [.. r.Runs.Select(RunJson.From)],
            Spread = r.Runs.Count == 0 ? null : SummaryJson.SpreadFigures.ToDictionary(f => f.Name, f => SpreadJson.From(r.SpreadOf(f.Figure)), StringComparer.Ordinal),
            Verdict = t?.Verdict, Evidence = t?.Evidence,
            Culprits = [.. r.Culprits.Select(CulpritJson.From)],
            NoCulpritBecause = r.NoCulpritBecause,
            Seed = seeds?.For(s.Experiment, s.Id)?.DeepClone().AsObject(),
            Files = new(ResultsWriter.RelativeFile(s, "requests.csv", r.Run), ResultsWriter.RelativeFile(s, "timeline.jsonl", r.Run)),
        };
    }
}

/// <summary>The pool over the scenario, from its watch (the whole timeline is in the scenario's timeline.jsonl).</summary>
public sealed record TimelineJson(int Samples, int ThreadsStart, int ThreadsPeak, int OsThreadsPeak, long QueuePeak, IReadOnlyDictionary<string, int> InjectionsByReason, bool ProcessExited)
{
    /// <summary>The highest p99 of the measured scheduling delay over the samples (ms); null when never measured.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull), JsonConverter(typeof(Round3))]
    public double? DelayP99PeakMs { get; init; }

    /// <summary>The highest finite estimate of the delay, queue ÷ completed/s (ms); null when none was finite.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull), JsonConverter(typeof(Round3))]
    public double? DelayEstimatePeakMs { get; init; }

    /// <summary>Why the delay was not measured, when it was not.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? DelayNote { get; init; }
}

/// <summary>One endpoint of a scenario's request mix (a plan's service).</summary>
public sealed record RequestJson(string Name, string Method, string Path, int Weight, int BodyBytes);

/// <summary>What the scenario cost the service's process.</summary>
public sealed record CostJson(double? PeakRssMb, double? CpuSeconds);

/// <summary>A blocking call diagnose found, the user method that made it, and the advice.</summary>
/// <param name="Threads">Pool threads held on average over the capture.</param>
/// <param name="Share">The share of the held threads' samples.</param>
public sealed record CulpritJson(
    string BlockingCall,
    string UserFrame,
    [property: JsonConverter(typeof(Round2))] double Threads,
    double Share,
    IReadOnlyList<string> Stack,
    string Advice)
{
    /// <summary>The JSON of <paramref name="c"/>.</summary>
    public static CulpritJson From(Culprit c)
    {
        ArgumentNullException.ThrowIfNull(c);
        return new(c.BlockingCall, c.UserFrame, c.Threads, c.Share, c.Stack, c.Advice);
    }
}

/// <summary>The scenario's own files, relative to the results folder.</summary>
public sealed record FilesJson(string Requests, string Timeline);

/// <summary>The headline figures of one run, with --repeat (<see cref="RunFigures"/>).</summary>
public sealed record RunJson(
    int Run,
    string Status,
    long Requests,
    long Failed,
    double? MeanMs,
    double? P50Ms,
    double? P99Ms,
    double? MaxMs,
    double? RequestsPerSecond,
    int? ThreadsPeak,
    int? Injections,
    double? PeakRssMb,
    double? CpuSeconds)
{
    /// <summary>The JSON of <paramref name="f"/>.</summary>
    public static RunJson From(RunFigures f)
    {
        ArgumentNullException.ThrowIfNull(f);
        return new(f.Run, Words.Camel(f.Status), f.Requests, f.Failed, f.MeanMs, f.P50Ms, f.P99Ms, f.MaxMs, f.RequestsPerSecond, f.ThreadsPeak, f.Injections, f.PeakRssMb, f.CpuSeconds);
    }
}

/// <summary>One figure over the repeated runs.</summary>
public sealed record SpreadJson(
    double Mean,
    double Min,
    double Max,
    double StdDev,
    int Runs)
{
    /// <summary>The JSON of <paramref name="s"/>; null for null.</summary>
    public static SpreadJson? From(Spread? s) => s is null ? null : new(s.Mean, s.Min, s.Max, s.StdDev, s.Runs);
}
