using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Lab.Results;
using Tplab.Launch;

namespace Tplab.Lab.Tuning;

/// <summary>tune.json and <c>tplab tune --format json</c> (docs/schemas/tune.schema.json), written and read through this record.</summary>
public sealed record TuneJson
{
    /// <summary>The version written; bumped when a field changes meaning or goes away.</summary>
    public const int CurrentSchema = 1;

    [JsonRequired]
    public int SchemaVersion { get; init; } = CurrentSchema;

    public string Tool { get; init; } = "";

    /// <summary>The service tuned: the user's command or pid, or tplab's target and its path.</summary>
    public string Service { get; init; } = "";

    public string Load { get; init; } = "";

    /// <summary>"p99 &lt; 1.5s".</summary>
    public string Objective { get; init; } = "";

    public string ObjectiveFigure { get; init; } = "";

    public double ObjectiveBoundMs { get; init; }

    public int Cores { get; init; }

    public int DefaultMinThreads { get; init; }

    public bool DefaultMeets { get; init; }

    public EstimateJson? Estimate { get; init; }

    public int? RecommendedMinThreads { get; init; }

    public int? HighestFailingMinThreads { get; init; }

    public bool Interrupted { get; init; }

    [JsonRequired]
    public IReadOnlyList<TrialJson> Trials { get; init; } = [];

    public IReadOnlyList<string> KnobsWithoutEffect { get; init; } = [];

    public IReadOnlyList<TuneCulpritJson> Culprits { get; init; } = [];

    /// <summary>The recommended minimum in each form, ready to paste.</summary>
    public IReadOnlyList<SettingJson> Settings { get; init; } = [];

    public string? Advice { get; init; }

    /// <summary>The JSON of <paramref name="r"/>.</summary>
    public static TuneJson From(TuneResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var o = r.Options;
        return new()
        {
            Tool = "tplab " + typeof(TuneJson).Assembly.GetName().Version?.ToString(3),
            Service = o.Service?.Describe() ?? $"tplab's target {o.Scenario.PathAndQuery}",
            Load = o.Scenario.Load.Describe(), Objective = o.Objective.ToString(), ObjectiveFigure = o.Objective.Figure,
            ObjectiveBoundMs = o.Objective.BoundMs, Cores = Environment.ProcessorCount, DefaultMinThreads = r.DefaultMinThreads,
            DefaultMeets = r.DefaultMeets,
            Estimate = r.Estimate is { } e ? new EstimateJson(e.Threads, e.ArrivalPerSecond, e.HoldSeconds, e.Explanation) : null,
            RecommendedMinThreads = r.RecommendedMinThreads, HighestFailingMinThreads = r.HighestFailing, Interrupted = r.Interrupted,
            Trials = [.. r.Trials.Select(TrialJson.From)],
            KnobsWithoutEffect = [.. r.KnobsWithoutEffect.Select(t => t.Knob!)],
            Culprits = [.. r.Culprits.Select(c => new TuneCulpritJson(c.BlockingCall, c.UserFrame, c.Threads, c.Advice))],
            Settings = [.. (r.RecommendedMinThreads is int n ? ThreadPoolForms.PasteReady(n) : []).Select(s => new SettingJson(s.Where, s.Text))],
            Advice = TuneAdvice.RealFix(r),
        };
    }

    /// <summary>Writes the JSON, indented.</summary>
    public static void Write(TuneResult r, TextWriter w) => TplabJson.Write(From(r), TuneJsonContext.Indented.TuneJson, w);
}

/// <summary>The Little's-law estimate.</summary>
public sealed record EstimateJson(
    int Threads,
    double ArrivalPerSecond,
    [property: JsonConverter(typeof(Round4))] double HoldSeconds,
    string Explanation);

/// <summary>A blocking call that makes a minimum necessary.</summary>
public sealed record TuneCulpritJson(string BlockingCall, string UserFrame, [property: JsonConverter(typeof(Round2))] double Threads, string Advice);

/// <summary>One form of the setting: where it goes and its text.</summary>
public sealed record SettingJson(string Where, string Text);

/// <summary>One trial: what it tried, whether it met the objective, and what it cost (the figures of summary.json's repeats).</summary>
public sealed record TrialJson
{
    public int Trial { get; init; }

    /// <summary>baseline, estimate, search or knob.</summary>
    public string Purpose { get; init; } = "";

    public int? MinThreads { get; init; }

    public string? Knob { get; init; }

    public bool Meets { get; init; }

    public string Why { get; init; } = "";

    public double? ObjectiveMs { get; init; }

    public string Status { get; init; } = "";

    public long Requests { get; init; }

    public long Failed { get; init; }

    public double? MeanMs { get; init; }

    public double? P50Ms { get; init; }

    public double? P99Ms { get; init; }

    public double? MaxMs { get; init; }

    public double? RequestsPerSecond { get; init; }

    public int? ThreadsPeak { get; init; }

    public int? Injections { get; init; }

    public double? PeakRssMb { get; init; }

    public double? CpuSeconds { get; init; }

    /// <summary>The JSON of <paramref name="t"/>.</summary>
    public static TrialJson From(TuneTrial t)
    {
        ArgumentNullException.ThrowIfNull(t);
        var f = RunJson.From(t.Figures);
        return new()
        {
            Trial = t.Number, Purpose = Words.Of(t.Purpose), MinThreads = t.MinThreads, Knob = t.Knob, Meets = t.Meets, Why = t.Why,
            ObjectiveMs = t.ObjectiveMs, Status = f.Status, Requests = f.Requests, Failed = f.Failed, MeanMs = f.MeanMs, P50Ms = f.P50Ms,
            P99Ms = f.P99Ms, MaxMs = f.MaxMs, RequestsPerSecond = f.RequestsPerSecond, ThreadsPeak = f.ThreadsPeak, Injections = f.Injections,
            PeakRssMb = f.PeakRssMb, CpuSeconds = f.CpuSeconds,
        };
    }
}

/// <summary>The source-generated serializer of tune.json: figures to three decimals unless a property says otherwise.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(TuneJson))]
internal sealed partial class TuneJsonContext : JsonSerializerContext
{
    /// <summary>Indented, as tune.json is written.</summary>
    public static TuneJsonContext Indented { get; } = new(TplabJson.Options(indented: true, numbers: new Round3()));
}
