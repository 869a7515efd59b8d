using System.Globalization;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Lab.Results;

namespace Tplab.Lab.Comparing;

/// <summary>A figure of one scenario: its value (the mean over the runs with --repeat) and, with repeats, the range.</summary>
public sealed record Figure(double Value, double? Min = null, double? Max = null, int Runs = 1);

/// <summary>One scenario of a results folder, as compare reads it from summary.json.</summary>
public sealed record ScenarioFigures(string Key, string Label, string Status, IReadOnlyDictionary<string, Figure> Figures);

/// <summary>A results folder's summary.json, read for <c>tplab compare</c>.</summary>
public sealed record ResultsFile(string Path, string? StartedAt, IReadOnlyList<ScenarioFigures> Scenarios)
{
    /// <summary>The figures compare reads, by name, as summary.json's spread names them.</summary>
    public static readonly IReadOnlyList<string> FigureNames =
        ["meanMs", "p50Ms", "p99Ms", "maxMs", "requestsPerSecond", "requests", "failed", "threadsPeak", "injections", "peakRssMb", "cpuSeconds"];

    /// <summary>Reads a results folder or a summary.json file (any schema version so far); a missing or unreadable one is a usage error in one line.</summary>
    public static ResultsFile Read(string path)
    {
        var file = Directory.Exists(path) ? System.IO.Path.Combine(path, "summary.json") : path;
        if (!File.Exists(file))
        {
            throw TplabException.Usage(Directory.Exists(path)
                ? $"{path}: no summary.json in this folder (give a results folder written by tplab run, or its summary.json)"
                : $"{path}: no such results folder or summary.json");
        }
        string text;
        try
        {
            text = File.ReadAllText(file);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"{file}: not a readable tplab summary.json ({e.Message.ReplaceLineEndings(" ")})");
        }
        var summary = TplabJson.Read(text, SummaryJsonContext.Indented.SummaryJson, $"{file}: not a tplab summary.json", $"{file}: not a readable tplab summary.json");
        if (summary.SchemaVersion > SummaryJson.CurrentSchema)
        {
            throw TplabException.Usage($"{file}: summary.json schema {summary.SchemaVersion.ToString(CultureInfo.InvariantCulture)} is newer than this tplab reads ({SummaryJson.CurrentSchema.ToString(CultureInfo.InvariantCulture)}); update tplab");
        }
        return new ResultsFile(file, summary.StartedAt, [.. summary.Scenarios.Select(Scenario)]);
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
        return new ScenarioFigures(key, s.Label.Length > 0 ? s.Label : key, s.Status.Length > 0 ? s.Status : "?", figures);
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
