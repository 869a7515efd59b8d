using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Launch;

namespace Tplab.Lab.Plans;

/// <summary>
/// Turns a plan file into an experiment: a list of scenarios, a matrix of variants × loads × pool settings,
/// or both. Every mistake is one line naming the field (docs/lab.md has the format).
/// </summary>
public static class PlanReader
{
    /// <summary>Reads <paramref name="path"/>; throws a usage error naming the field or line.</summary>
    public static Experiment Read(string path)
    {
        var document = PlanDocument.Read(path);
        var reader = new FieldReader(document);
        var root = document.Root as JsonObject ?? throw reader.Error("", "the plan must be an object with 'scenarios' or 'matrix'");
        reader.OnlyKnown(root, "", "name", "service", "scenarios", "matrix", "watch");
        var name = reader.Name(root, "", "name")
            ?? reader.CheckName(Path.GetFileNameWithoutExtension(path), "name", " (taken from the file name: give 'name')");
        if (SeedExperiments.Names.Contains(name, StringComparer.OrdinalIgnoreCase))
        {
            // Results and seed figures are filed by experiment name: a plan must not pass for a seed experiment.
            throw reader.Error("name", $"'{name}' is the name of a seed experiment; give the plan another name");
        }
        var service = root["service"] is { } sv ? ServiceReader.Read(reader, sv as JsonObject ?? throw reader.Error("service", "must be an object")) : null;
        var scenarios = new List<Scenario>();
        if (root["scenarios"] is { } list)
        {
            var items = list as JsonArray ?? throw reader.Error("scenarios", "must be a list");
            for (var i = 0; i < items.Count; i++)
            {
                var item = items[i] as JsonObject ?? throw reader.Error($"scenarios[{i}]", "must be an object");
                scenarios.Add(service is null ? ReadScenario(reader, name, item, $"scenarios[{i}]") : ServiceReader.Scenario(reader, service, name, item, $"scenarios[{i}]"));
            }
        }
        if (root["matrix"] is { } m)
        {
            if (service is not null)
            {
                throw reader.Error("matrix", "varies the built-in target's variants; with a service, list 'scenarios' with their 'requests'");
            }
            scenarios.AddRange(ReadMatrix(reader, name, m as JsonObject ?? throw reader.Error("matrix", "must be an object")));
        }
        if (scenarios.Count == 0)
        {
            throw reader.Error("", "the plan has no scenarios: give 'scenarios' or 'matrix'");
        }
        if (root["watch"] is not null && service is null)
        {
            throw reader.Error("watch", "lists findings checked by watching your service; it goes with a 'service' section");
        }
        var watch = root["watch"] is { } w ? FindingChecks.ReadList(reader, w, "watch") : [];
        if (scenarios.All(s => !s.Enabled))
        {
            throw reader.Error("", "every scenario is switched off (enabled: false): switch on the ones to run (a plan from tplab scan --plan switches writes off; --plan-writes keeps them on)");
        }
        var duplicate = scenarios.GroupBy(s => s.Id).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw reader.Error("", $"two scenarios have the id '{duplicate.Key}': give them distinct 'id' values");
        }
        return new Experiment
        {
            Name = name, Title = service is null ? $"plan {name}" : $"plan {name}: {service.Describe()}", Seeds = [],
            Scenarios = [.. scenarios.Where(s => s.Enabled)], SwitchedOff = [.. scenarios.Where(s => !s.Enabled)], Watch = watch,
            Scaling = $"plan file {Path.GetFileName(path)}", Service = service,
        };
    }

    private static Scenario ReadScenario(FieldReader r, string experiment, JsonObject o, string at)
    {
        r.OnlyKnown(o, at, "id", "variant", "waitMs", "minThreads", "knobs", "load", "deadline");
        var variant = r.Variant(o, at);
        var pool = new ThreadPoolSettings { MinThreads = r.Int(o, at, "minThreads", 1, short.MaxValue), Knobs = r.Knobs(o, at) };
        var load = ReadLoad(r, o["load"] as JsonObject ?? throw r.Error(Join(at, "load"), "is required (an object)"), Join(at, "load"));
        var given = r.Name(o, at, "id");
        var id = given ?? AutoId(variant, pool, load);
        return new Scenario
        {
            Experiment = experiment, Id = id, Name = given, Variant = variant, WaitMs = r.Int(o, at, "waitMs", 0, 600_000) ?? 1000,
            ThreadPool = pool, Load = load, Deadline = r.Duration(o, at, "deadline", TimeSpan.FromSeconds(1)) ?? TimeSpan.FromMinutes(5),
        };
    }

    private static IEnumerable<Scenario> ReadMatrix(FieldReader r, string experiment, JsonObject m)
    {
        r.OnlyKnown(m, "matrix", "variants", "waitMs", "minThreads", "loads");
        var variants = r.List(m, "matrix", "variants").Select((v, i) => r.Variant(v, $"matrix.variants[{i}]")).ToList();
        var mins = m["minThreads"] is JsonArray a ? a.Select((v, i) => r.IntValue(v, $"matrix.minThreads[{i}]", 1, short.MaxValue)).ToList() : [null];
        var loads = r.List(m, "matrix", "loads").Select((l, i) =>
            ReadLoad(r, l as JsonObject ?? throw r.Error($"matrix.loads[{i}]", "must be an object"), $"matrix.loads[{i}]")).ToList();
        var wait = r.Int(m, "matrix", "waitMs", 0, 600_000) ?? 1000;
        foreach (var variant in variants)
        {
            foreach (var min in mins)
            {
                for (var i = 0; i < loads.Count; i++)
                {
                    var pool = new ThreadPoolSettings { MinThreads = min };
                    yield return new Scenario
                    {
                        Experiment = experiment, Variant = variant, WaitMs = wait, ThreadPool = pool, Load = loads[i],
                        Id = AutoId(variant, pool, loads[i]) + (loads.Count > 1 ? $"-load{i + 1}" : ""),
                    };
                }
            }
        }
    }

    internal static LoadProfile ReadLoad(FieldReader r, JsonObject o, string at)
    {
        r.OnlyKnown(o, at, "model", "concurrency", "requests", "loops", "rampUp", "duration", "think", "rate", "timeout");
        var model = (r.String(o, at, "model") ?? (o["rate"] is null ? "closed" : "open")) switch
        {
            "closed" => LoadModel.Closed,
            "open" => LoadModel.Open,
            var other => throw r.Error(Join(at, "model"), $"must be 'closed' or 'open', got '{other}'"),
        };
        var (thinkMin, thinkMax) = r.Think(o, at);
        var profile = new LoadProfile
        {
            Model = model,
            Concurrency = r.Int(o, at, "concurrency", 1, 10_000) ?? 1,
            Requests = r.Int(o, at, "requests", 1, 10_000_000),
            Loops = r.Int(o, at, "loops", 1, 1_000_000),
            RampUp = r.Duration(o, at, "rampUp", TimeSpan.Zero) ?? TimeSpan.Zero,
            Duration = r.Duration(o, at, "duration", TimeSpan.FromMilliseconds(100)),
            ThinkMin = thinkMin,
            ThinkMax = thinkMax,
            Rate = r.Double(o, at, "rate", 0.001, 100_000) ?? 0,
            Timeout = r.Duration(o, at, "timeout", TimeSpan.FromMilliseconds(1), TimeSpan.FromHours(1)) ?? TimeSpan.FromSeconds(30),
        };
        if (model == LoadModel.Open && (profile.Rate <= 0 || profile.Duration is null))
        {
            throw r.Error(at, "an open-loop load needs 'rate' and 'duration'");
        }
        if (model == LoadModel.Open && profile.Requests is null && profile.Rate * profile.Duration!.Value.TotalSeconds < 1)
        {
            throw r.Error(Join(at, "rate"), $"{profile.Rate.ToString(CultureInfo.InvariantCulture)}/s for {DurationText.Format(profile.Duration.Value)} plans no request (rate × duration is below 1)");
        }
        if (model == LoadModel.Closed && profile.Requests is null && profile.Loops is null && profile.Duration is null)
        {
            throw r.Error(at, "a closed-loop load needs 'requests', 'loops' or 'duration' to end");
        }
        return profile;
    }

    internal static string AutoId(string variant, ThreadPoolSettings pool, LoadProfile load)
    {
        var id = variant;
        if (pool.MinThreads is int min)
        {
            id += string.Create(CultureInfo.InvariantCulture, $"-min{min}");
        }
        if (pool.Knobs.Count > 0)
        {
            id += "-knobs";
        }
        return load.Model == LoadModel.Open
            ? id + string.Create(CultureInfo.InvariantCulture, $"-r{load.Rate:0.##}")
            : id + string.Create(CultureInfo.InvariantCulture, $"-c{load.Concurrency}");
    }

    /// <summary>Whether <paramref name="name"/> can be a plan's name or a scenario's id (one safe path segment).</summary>
    public static bool IsSafeName(string name) => FileNames.IsSafe(name);

    internal static string Join(string at, string field) => at.Length == 0 ? field : $"{at}.{field}";
}
