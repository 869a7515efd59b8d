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
        return Check(reader, Records(document, reader), path);
    }

    /// <summary>The records of a plan's tree, as they are written, before any field is checked.</summary>
    internal static PlanFile Records(PlanDocument document, FieldReader reader)
    {
        if (document.Root is not JsonObject root)
        {
            throw reader.Error("", "the plan must be an object with 'scenarios' or 'matrix'");
        }
        try
        {
            return root.Deserialize(PlanJsonContext.Plans.PlanFile)!;
        }
        catch (JsonException e)
        {
            throw reader.Error(e);
        }
    }

    private static Experiment Check(FieldReader reader, PlanFile file, string path)
    {
        reader.OnlyKnown(file.Unknown?.Keys, "", Known.Plan);
        var name = reader.Name(file.Name, "name")
            ?? reader.CheckName(Path.GetFileNameWithoutExtension(path), "name", " (taken from the file name: give 'name')");
        if (SeedExperiments.Names.Contains(name, StringComparer.OrdinalIgnoreCase))
        {
            // Results and seed figures are filed by experiment name: a plan must not pass for a seed experiment.
            throw reader.Error("name", $"'{name}' is the name of a seed experiment; give the plan another name");
        }
        var service = file.Service is { } sv ? ServiceReader.Read(reader, sv) : null;
        var scenarios = new List<Scenario>();
        var items = reader.Items(file.Scenarios, "scenarios");
        for (var i = 0; i < items.Count; i++)
        {
            scenarios.Add(service is null ? ReadScenario(reader, name, items[i], $"scenarios[{i}]") : ServiceReader.Scenario(reader, service, name, items[i], $"scenarios[{i}]"));
        }
        if (file.Matrix is { } m)
        {
            if (service is not null)
            {
                throw reader.Error("matrix", "varies the built-in target's variants; with a service, list 'scenarios' with their 'requests'");
            }
            scenarios.AddRange(ReadMatrix(reader, name, m));
        }
        if (scenarios.Count == 0)
        {
            throw reader.Error("", "the plan has no scenarios: give 'scenarios' or 'matrix'");
        }
        if (file.Watch is not null && service is null)
        {
            throw reader.Error("watch", "lists findings checked by watching your service; it goes with a 'service' section");
        }
        var watch = FindingChecks.ReadList(reader, file.Watch, "watch");
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

    private static Scenario ReadScenario(FieldReader r, string experiment, PlanScenario o, string at)
    {
        r.OnlyKnown(Known.Given(o, service: false), at, Known.TargetScenario);
        var variant = r.Variant(o.Variant, Join(at, "variant"));
        var pool = new ThreadPoolSettings { MinThreads = r.Int(o.MinThreads, Join(at, "minThreads"), 1, short.MaxValue), Knobs = FieldReader.Pairs(o.Knobs) };
        var load = ReadLoad(r, o.Load ?? throw r.Error(Join(at, "load"), "is required (an object)"), Join(at, "load"));
        var given = r.Name(o.Id, Join(at, "id"));
        var id = given ?? AutoId(variant, pool, load);
        return new Scenario
        {
            Experiment = experiment, Id = id, Name = given, Variant = variant, WaitMs = r.Int(o.WaitMs, Join(at, "waitMs"), 0, 600_000) ?? 1000,
            ThreadPool = pool, Load = load, Deadline = r.Duration(o.Deadline, Join(at, "deadline"), TimeSpan.FromSeconds(1)) ?? TimeSpan.FromMinutes(5),
        };
    }

    private static IEnumerable<Scenario> ReadMatrix(FieldReader r, string experiment, PlanMatrix m)
    {
        r.OnlyKnown(m.Unknown?.Keys, "matrix", Known.Matrix);
        var variants = m.Variants is { Count: > 0 } vs ? vs.Select((v, i) => r.Variant(v, $"matrix.variants[{i}]")).ToList() : throw r.Error("matrix.variants", "is required (a non-empty list)");
        var mins = m.MinThreads is { } a ? a.Select((v, i) => r.Int(v, $"matrix.minThreads[{i}]", 1, short.MaxValue)).ToList() : [null];
        var loads = r.List(m.Loads, "matrix.loads").Select((l, i) => ReadLoad(r, l, $"matrix.loads[{i}]")).ToList();
        var wait = r.Int(m.WaitMs, "matrix.waitMs", 0, 600_000) ?? 1000;
        return Cross(experiment, variants, mins, loads, wait);
    }

    private static IEnumerable<Scenario> Cross(string experiment, List<string> variants, List<int?> mins, List<LoadProfile> loads, int wait)
    {
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

    internal static LoadProfile ReadLoad(FieldReader r, PlanLoad o, string at)
    {
        r.OnlyKnown(o.Unknown?.Keys, at, Known.Load);
        var model = (o.Model ?? (o.Rate is null ? "closed" : "open")) switch
        {
            "closed" => LoadModel.Closed,
            "open" => LoadModel.Open,
            var other => throw r.Error(Join(at, "model"), $"must be 'closed' or 'open', got '{other}'"),
        };
        var (thinkMin, thinkMax) = r.Think(o.Think, Join(at, "think"));
        var profile = new LoadProfile
        {
            Model = model,
            Concurrency = r.Int(o.Concurrency, Join(at, "concurrency"), 1, 10_000) ?? 1,
            Requests = r.Int(o.Requests, Join(at, "requests"), 1, 10_000_000),
            Loops = r.Int(o.Loops, Join(at, "loops"), 1, 1_000_000),
            RampUp = r.Duration(o.RampUp, Join(at, "rampUp"), TimeSpan.Zero) ?? TimeSpan.Zero,
            Duration = r.Duration(o.Duration, Join(at, "duration"), TimeSpan.FromMilliseconds(100)),
            ThinkMin = thinkMin,
            ThinkMax = thinkMax,
            Rate = r.Double(o.Rate, Join(at, "rate"), 0.001, 100_000) ?? 0,
            Timeout = r.Duration(o.Timeout, Join(at, "timeout"), TimeSpan.FromMilliseconds(1), TimeSpan.FromHours(1)) ?? TimeSpan.FromSeconds(30),
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
