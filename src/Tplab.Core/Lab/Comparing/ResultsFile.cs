using System.Globalization;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Lab.Results;

namespace Tplab.Lab.Comparing;

/// <summary>A figure of one scenario: its value (the mean over the runs with --repeat) and, with repeats, the range.</summary>
public sealed record Figure(double Value, double? Min = null, double? Max = null, int Runs = 1);

/// <summary>One scenario of a results folder, as compare reads it from summary.json.</summary>
public sealed record ScenarioFigures(string Key, string Label, string Status, IReadOnlyDictionary<string, Figure> Figures)
{
    /// <summary>What was loaded, whatever the pool settings: experiment, variant and wait, or the requests, and the load profile.</summary>
    public string Workload { get; init; } = Key;

    /// <summary>The pool settings it ran with, as tables label them (<c>default</c>, <c>SetMinThreads(40)</c>).</summary>
    public string Settings { get; init; } = "default";
}

/// <summary>A results folder's summary.json, read for <c>tplab compare</c>.</summary>
public sealed record ResultsFile(string Path, string? StartedAt, IReadOnlyList<ScenarioFigures> Scenarios)
{
    /// <summary>Whether the run was stopped by Ctrl+C or SIGTERM (summary.json's <c>interrupted</c>).</summary>
    public bool Interrupted { get; init; }

    /// <summary>Why the run never reached its end (killed: its folder's marker says so); null when it did.</summary>
    public string? Unfinished { get; init; }

    /// <summary>The figures compare reads, by name, as summary.json's spread names them.</summary>
    public static readonly IReadOnlyList<string> FigureNames =
        ["meanMs", "p50Ms", "p99Ms", "maxMs", "requestsPerSecond", "requests", "failed", "threadsPeak", "injections", "peakRssMb", "cpuSeconds"];

    /// <summary>Reads a results folder or a summary.json file (any schema version so far); a missing or unreadable one is a usage error in one line.</summary>
    public static ResultsFile Read(string path)
    {
        var file = Directory.Exists(path) ? System.IO.Path.Combine(path, "summary.json") : path;
        var unfinished = Running.ResultsFolder.Unfinished(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(file)) ?? ".");
        if (!File.Exists(file) && unfinished is not null)
        {
            throw TplabException.Usage($"{path} is unfinished and holds no summary.json yet: {unfinished} before its first scenario ended");
        }
        if (!File.Exists(file))
        {
            throw TplabException.Usage(Directory.Exists(path)
                ? $"{path}: no summary.json in this folder (give a results folder written by tplab run, or its summary.json)"
                : $"{path}: no such results folder or summary.json");
        }
        var text = InputFile.ReadText(file, "compare:", InputLimit.Summary);
        var summary = TplabJson.Read(text, SummaryJsonContext.Indented.SummaryJson, $"{file}: not a tplab summary.json", $"{file}: not a readable tplab summary.json");
        if (summary.SchemaVersion > SummaryJson.CurrentSchema)
        {
            throw TplabException.Usage($"{file}: summary.json schema {summary.SchemaVersion.ToString(CultureInfo.InvariantCulture)} is newer than this tplab reads ({SummaryJson.CurrentSchema.ToString(CultureInfo.InvariantCulture)}); update tplab");
        }
        return new ResultsFile(file, summary.StartedAt, [.. summary.Scenarios.Select(Scenario)])
        {
            Interrupted = summary.Interrupted,
            Unfinished = unfinished,
        };
    }

    private static ScenarioFigures Scenario(ScenarioJson s)
    {
        var key = $"{s.Experiment}/{s.Scenario}";
        var figures = new Dictionary<string, Figure>(StringComparer.Ordinal);
        foreach (var name in FigureNames)
        {
            if (s.Spread?.GetValueOrDefault(name) is { } sp)
            {
                figures[name] = new Figure(sp.Mean, sp.Min, sp.Max, sp.Runs);
            }
            else if (Single(s, name) is double value)
            {
                figures[name] = new Figure(value);
            }
        }
        // A hand-written or older summary may leave out what tplab always writes (label, status, knobs): the
        // deserializer then leaves those null, whatever the record's defaults say.
        // Names from the file are shown on the terminal and in pages: escaped once, here, where they enter tplab.
        key = TerminalText.Escape(key);
        return new ScenarioFigures(key, string.IsNullOrEmpty(s.Label) ? key : TerminalText.Escape(s.Label), string.IsNullOrEmpty(s.Status) ? "?" : TerminalText.Escape(s.Status), figures)
        {
            Workload = string.Join('|', s.Experiment, s.Variant, s.WaitMs?.ToString(CultureInfo.InvariantCulture), s.LoadProfile,
                string.Join(';', (s.Requests ?? []).Select(q => $"{q.Method} {q.Path} {q.Weight.ToString(CultureInfo.InvariantCulture)} {q.BodyBytes.ToString(CultureInfo.InvariantCulture)}"))),
            Settings = new Launch.ThreadPoolSettings { MinThreads = s.MinThreads, Knobs = [.. s.Knobs ?? new Dictionary<string, string>()] }.Label(),
        };
    }

    private static double? Single(ScenarioJson s, string name) => name switch
    {
        "meanMs" => s.Load?.LatencyMs.Mean,
        "p50Ms" => s.Load?.LatencyMs.P50,
        "p99Ms" => s.Load?.LatencyMs.P99,
        "maxMs" => s.Load?.LatencyMs.Max,
        "requestsPerSecond" => s.Load?.ThroughputPerSecond,
        "requests" => s.Load?.Requests,
        "failed" => s.Load?.Failed,
        "threadsPeak" => s.Timeline?.ThreadsPeak,
        "injections" => s.Timeline?.InjectionsByReason.Values.Sum(),
        "peakRssMb" => s.Cost?.PeakRssMb,
        "cpuSeconds" => s.Cost?.CpuSeconds,
        _ => null,
    };
}
