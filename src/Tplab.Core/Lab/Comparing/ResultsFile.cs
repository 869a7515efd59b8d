using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;

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

    /// <summary>Reads a results folder or a summary.json file; a missing or unreadable one is a usage error in one line.</summary>
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
        JsonObject root;
        try
        {
            root = JsonNode.Parse(File.ReadAllText(file)) as JsonObject ?? throw new JsonException("not an object");
        }
        catch (Exception e) when (e is JsonException or IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"{file}: not a readable tplab summary.json ({e.Message.ReplaceLineEndings(" ")})");
        }
        if (root["scenarios"] is not JsonArray scenarios || root["schemaVersion"] is null)
        {
            throw TplabException.Usage($"{file}: not a tplab summary.json (no schemaVersion or scenarios)");
        }
        return new ResultsFile(file, (string?)root["startedAt"], [.. scenarios.OfType<JsonObject>().Select(Scenario)])
        {
            Interrupted = root["interrupted"] is JsonValue i && i.GetValueKind() == JsonValueKind.True,
            Unfinished = unfinished,
        };
    }

    private static ScenarioFigures Scenario(JsonObject s)
    {
        var key = $"{(string?)s["experiment"]}/{(string?)s["scenario"]}";
        var figures = new Dictionary<string, Figure>(StringComparer.Ordinal);
        var spread = s["spread"] as JsonObject;
        foreach (var name in FigureNames)
        {
            if (spread?[name] is JsonObject sp && Number(sp["mean"]) is double mean)
            {
                figures[name] = new Figure(mean, Number(sp["min"]), Number(sp["max"]), (int)(Number(sp["runs"]) ?? 1));
            }
            else if (Single(s, name) is double value)
            {
                figures[name] = new Figure(value);
            }
        }
        return new ScenarioFigures(key, (string?)s["label"] ?? key, (string?)s["status"] ?? "?", figures)
        {
            Workload = string.Join('|', new[] { s["experiment"], s["variant"], s["waitMs"], s["loadProfile"], s["requests"] }.Select(n => n?.ToJsonString() ?? "")),
            Settings = Settings(s),
        };
    }

    // The pool settings as tables label them; summary.json writes minThreads and knobs for every scenario.
    private static string Settings(JsonObject s)
    {
        var knobs = s["knobs"] is JsonObject k
            ? [.. k.Select(kv => KeyValuePair.Create(kv.Key, kv.Value is JsonValue v && v.TryGetValue<string>(out var text) ? text : kv.Value?.ToJsonString() ?? ""))]
            : new List<KeyValuePair<string, string>>();
        var min = Number(s["minThreads"]) is double m ? (int?)m : null;
        return new Launch.ThreadPoolSettings { MinThreads = min, Knobs = knobs }.Label();
    }

    private static double? Single(JsonObject s, string name)
    {
        var load = s["load"] as JsonObject;
        var latency = load?["latencyMs"] as JsonObject;
        return name switch
        {
            "meanMs" => Number(latency?["mean"]),
            "p50Ms" => Number(latency?["p50"]),
            "p99Ms" => Number(latency?["p99"]),
            "maxMs" => Number(latency?["max"]),
            "requestsPerSecond" => Number(load?["throughputPerSecond"]),
            "requests" => Number(load?["requests"]),
            "failed" => Number(load?["failed"]),
            "threadsPeak" => Number(s["timeline"]?["threadsPeak"]),
            "injections" => s["timeline"]?["injectionsByReason"] is JsonObject by ? by.Sum(kv => Number(kv.Value) ?? 0) : null,
            "peakRssMb" => Number(s["cost"]?["peakRssMb"]),
            "cpuSeconds" => Number(s["cost"]?["cpuSeconds"]),
            _ => null,
        };
    }

    private static double? Number(JsonNode? node) =>
        node is JsonValue v && v.GetValueKind() == JsonValueKind.Number ? v.GetValue<double>() : null;
}
