using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Launch.Service;

namespace Tplab.Lab.Plans;

/// <summary>
/// Writes a plan of the user's service as the records <see cref="PlanReader"/> reads back into the same
/// <see cref="Experiment"/> (<see cref="PlanFile"/>, the one definition of the format: docs/lab.md): as JSON when the
/// file ends in <c>.json</c> (the comments as <c>//</c> lines, which the reader skips, like appsettings.json) and as YAML
/// otherwise. Scenarios switched off are written with <c>enabled: false</c>, after those that run.
/// </summary>
public static class PlanWriter
{
    /// <summary>Writes <paramref name="plan"/>, which will be saved at <paramref name="planPath"/> (folders are written relative to it), with <paramref name="comments"/> at the top.</summary>
    public static void Write(Experiment plan, string planPath, IReadOnlyList<string> comments, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(comments);
        ArgumentNullException.ThrowIfNull(writer);
        var json = planPath.EndsWith(".json", StringComparison.OrdinalIgnoreCase);
        var file = From(plan, planPath);
        var tree = JsonSerializer.SerializeToNode(file, PlanJsonContext.Plans.PlanFile)!;
        // The reader's bound, checked before a byte is written: a plan tplab writes is one it reads back.
        if (Values(tree) is var values && values > PlanDocument.MaxNodes)
        {
            throw TplabException.Usage(string.Create(CultureInfo.InvariantCulture,
                $"--plan {planPath}: the plan would hold {values:#,0} values in {(file.Scenarios?.Count ?? 0):#,0} scenarios, more than the {PlanDocument.MaxNodes:#,0} tplab run --plan reads; plan a part at a time (scan one project or folder)"));
        }
        foreach (var line in comments)
        {
            var text = TerminalText.Escape(line); // a comment is for people: a control character in it would make the file unreadable
            writer.WriteLine(json ? (text.Length == 0 ? "//" : "// " + text) : (text.Length == 0 ? "#" : "# " + text));
        }
        if (json)
        {
            writer.Write(JsonSerializer.Serialize(file, PlanJsonContext.Plans.PlanFile));
            writer.Write('\n');
        }
        else
        {
            PlanYaml.Write(tree, writer);
        }
    }

    // Values as the reader counts them: every object, list and scalar (keys are not values).
    private static int Values(JsonNode? node) => node switch
    {
        JsonObject o => 1 + o.Sum(p => Values(p.Value)),
        JsonArray a => 1 + a.Sum(Values),
        _ => 1,
    };

    /// <summary>The records of <paramref name="plan"/>, a plan of the user's service, to be saved at <paramref name="planPath"/>.</summary>
    internal static PlanFile From(Experiment plan, string planPath)
    {
        var service = plan.Service ?? throw new ArgumentException("only a plan of the user's service is written", nameof(plan));
        return new PlanFile
        {
            Name = plan.Name,
            Service = Service(service, planPath),
            Scenarios = [.. plan.Scenarios.Concat(plan.SwitchedOff).Select(Scenario)],
            Watch = plan.Watch.Count > 0 ? [.. plan.Watch.Select(Check)] : null,
        };
    }

    private static PlanService Service(ServiceDefinition s, string planPath)
    {
        var planFolder = Path.GetDirectoryName(Path.GetFullPath(planPath))!;
        return new PlanService
        {
            Command = s.Command,
            WorkingDirectory = s.Command is null ? null : Folder(planFolder, Path.GetFullPath(s.WorkingDirectory, planFolder)),
            Environment = Map(s.Environment),
            Url = s.Url?.GetLeftPart(UriPartial.Authority),
            Pid = s.ProcessId,
            Ready = s.ReadyPath,
            StartTimeout = DurationText.Format(s.StartTimeout),
            MinThreadsVia = s.MinThreadsVia switch
            {
                null => null,
                MinThreadsVia.RuntimeConfig => "runtimeconfig",
                MinThreadsVia.Environment => "environment",
                _ => "setting",
            },
            MinThreadsSetting = s.MinThreadsSetting,
            WarmUp = s.WarmUpRequests,
        };
    }

    private static PlanScenario Scenario(Scenario s) => new()
    {
        Id = s.Id,
        Enabled = s.Enabled ? null : false,
        Requests = [.. s.Requests.Select(Request)],
        MinThreads = s.ThreadPool.MinThreads,
        Knobs = Map(s.ThreadPool.Knobs),
        Load = Load(s.Load),
        Deadline = DurationText.Format(s.Deadline),
        Checks = s.Checks.Count > 0 ? [.. s.Checks.Select(Check)] : null,
    };

    private static PlanRequest Request(RequestSpec r) => new()
    {
        Method = r.Method,
        Path = r.Path,
        Headers = Map(r.Headers),
        Body = r.Body.IsEmpty ? null : Encoding.UTF8.GetString(r.Body.Span),
        Weight = r.Weight != 1 ? r.Weight : null,
        Name = r.Name,
    };

    private static PlanLoad Load(LoadProfile l) => new()
    {
        Model = l.Model == LoadModel.Open ? "open" : "closed",
        Rate = l.Model == LoadModel.Open ? l.Rate : null,
        Concurrency = l.Model == LoadModel.Open ? null : l.Concurrency,
        Requests = l.Requests,
        Loops = l.Loops,
        RampUp = l.RampUp > TimeSpan.Zero ? DurationText.Format(l.RampUp) : null,
        Duration = l.Duration is { } d ? DurationText.Format(d) : null,
        Think = l.ThinkMax > TimeSpan.Zero ? string.Create(CultureInfo.InvariantCulture, $"{DurationText.Format(l.ThinkMin)}..{DurationText.Format(l.ThinkMax)}") : null,
        Timeout = DurationText.Format(l.Timeout),
    };

    private static PlanCheck Check(FindingCheck c) => new()
    {
        Rule = c.Rule, Root = c.Root, UserMethod = c.UserMethod, BlockingCall = c.BlockingCall, Severity = c.Severity, At = c.At,
    };

    // Absent when empty, as the reader takes an absent map; the order of the pairs is kept.
    private static Dictionary<string, string>? Map(IReadOnlyList<KeyValuePair<string, string>> pairs)
    {
        if (pairs.Count == 0)
        {
            return null;
        }
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (key, value) in pairs)
        {
            map[key] = value;
        }
        return map;
    }

    // Relative to the plan when they share a folder below the root (the plan moves with the project), else absolute.
    private static string Folder(string planFolder, string folder)
    {
        var relative = Path.GetRelativePath(planFolder, folder).Replace('\\', '/');
        var climbs = relative.Split('/').TakeWhile(p => p == "..").Count();
        var depth = planFolder.Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries).Length;
        return Path.IsPathRooted(relative) || climbs >= depth ? folder : relative;
    }
}
