using System.Globalization;
using System.Text;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Launch.Service;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Tplab.Lab.Plans;

/// <summary>
/// Writes a plan of the user's service, in the fields <see cref="PlanReader"/> reads back into the same
/// <see cref="Experiment"/> (one definition of the format: docs/lab.md): one tree of fields, the one the reader reads,
/// saved as JSON when the file ends in <c>.json</c> (the comments as <c>//</c> lines, which the reader skips, like
/// appsettings.json) and as YAML otherwise. Scenarios switched off are written with <c>enabled: false</c>, after those that run.
/// </summary>
public static class PlanWriter
{
    /// <summary>Writes <paramref name="plan"/>, which will be saved at <paramref name="planPath"/> (folders are written relative to it), with <paramref name="comments"/> at the top.</summary>
    public static void Write(Experiment plan, string planPath, IReadOnlyList<string> comments, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(comments);
        ArgumentNullException.ThrowIfNull(writer);
        var service = plan.Service ?? throw new ArgumentException("only a plan of the user's service is written", nameof(plan));
        var json = planPath.EndsWith(".json", StringComparison.OrdinalIgnoreCase);
        foreach (var line in comments)
        {
            var text = TerminalText.Escape(line); // a comment is for people: a control character in it would make the file unreadable
            writer.WriteLine(json ? (text.Length == 0 ? "//" : "// " + text) : (text.Length == 0 ? "#" : "# " + text));
        }
        var root = new JsonObject { { "name", Scalar(plan.Name) }, { "service", Service(service, planPath) } };
        root.Add("scenarios", new JsonArray([.. plan.Scenarios.Concat(plan.SwitchedOff).Select(Scenario)]));
        if (plan.Watch.Count > 0)
        {
            root.Add("watch", new JsonArray([.. plan.Watch.Select(Check)]));
        }
        if (json)
        {
            writer.WriteLine(root.ToJsonString(Indented));
        }
        else
        {
            PlanYaml.Write(root, writer);
        }
    }

    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private static JsonObject Map(IEnumerable<KeyValuePair<string, string>> pairs)
    {
        var o = new JsonObject();
        foreach (var (key, value) in pairs)
        {
            o[key] = Scalar(value);
        }
        return o;
    }

    private static JsonObject Service(ServiceDefinition s, string planPath)
    {
        var o = new JsonObject();
        if (s.Command is { } command)
        {
            o.Add("command", Scalar(command));
            var planFolder = Path.GetDirectoryName(Path.GetFullPath(planPath))!;
            o.Add("workingDirectory", Scalar(Folder(planFolder, Path.GetFullPath(s.WorkingDirectory, planFolder))));
        }
        if (s.Environment.Count > 0)
        {
            o.Add("environment", Map(s.Environment));
        }
        if (s.Url is { } url)
        {
            o.Add("url", Scalar(url.GetLeftPart(UriPartial.Authority)));
        }
        if (s.ProcessId is int pid)
        {
            o.Add("pid", Number(pid));
        }
        if (s.ReadyPath is { } ready)
        {
            o.Add("ready", Scalar(ready));
        }
        o.Add("startTimeout", Scalar(DurationText.Format(s.StartTimeout)));
        if (s.MinThreadsVia is { } via)
        {
            o.Add("minThreadsVia", Scalar(via switch { MinThreadsVia.RuntimeConfig => "runtimeconfig", MinThreadsVia.Environment => "environment", _ => "setting" }));
        }
        if (s.MinThreadsSetting is { } setting)
        {
            o.Add("minThreadsSetting", Scalar(setting));
        }
        o.Add("warmUp", Number(s.WarmUpRequests));
        return o;
    }

    private static JsonObject Scenario(Scenario s)
    {
        var o = new JsonObject { { "id", Scalar(s.Id) } };
        if (!s.Enabled)
        {
            o.Add("enabled", false);
        }
        o.Add("requests", new JsonArray([.. s.Requests.Select(Request)]));
        if (s.ThreadPool.MinThreads is int min)
        {
            o.Add("minThreads", Number(min));
        }
        if (s.ThreadPool.Knobs.Count > 0)
        {
            o.Add("knobs", Map(s.ThreadPool.Knobs));
        }
        o.Add("load", Load(s.Load));
        o.Add("deadline", Scalar(DurationText.Format(s.Deadline)));
        if (s.Checks.Count > 0)
        {
            o.Add("checks", new JsonArray([.. s.Checks.Select(Check)]));
        }
        return o;
    }

    private static JsonObject Request(RequestSpec r)
    {
        var o = new JsonObject { { "method", Scalar(r.Method) }, { "path", Scalar(r.Path) } };
        if (r.Headers.Count > 0)
        {
            o.Add("headers", Map(r.Headers));
        }
        if (!r.Body.IsEmpty)
        {
            o.Add("body", Scalar(Encoding.UTF8.GetString(r.Body.Span)));
        }
        if (r.Weight != 1)
        {
            o.Add("weight", Number(r.Weight));
        }
        if (r.Name is { } name)
        {
            o.Add("name", Scalar(name));
        }
        return o;
    }

    private static JsonObject Load(LoadProfile l)
    {
        var o = new JsonObject { { "model", Scalar(l.Model == LoadModel.Open ? "open" : "closed") } };
        if (l.Model == LoadModel.Open)
        {
            o.Add("rate", JsonValue.Create(l.Rate));
        }
        else
        {
            o.Add("concurrency", Number(l.Concurrency));
        }
        if (l.Requests is int n)
        {
            o.Add("requests", Number(n));
        }
        if (l.Loops is int loops)
        {
            o.Add("loops", Number(loops));
        }
        if (l.RampUp > TimeSpan.Zero)
        {
            o.Add("rampUp", Scalar(DurationText.Format(l.RampUp)));
        }
        if (l.Duration is { } d)
        {
            o.Add("duration", Scalar(DurationText.Format(d)));
        }
        if (l.ThinkMax > TimeSpan.Zero)
        {
            o.Add("think", Scalar($"{DurationText.Format(l.ThinkMin)}..{DurationText.Format(l.ThinkMax)}"));
        }
        o.Add("timeout", Scalar(DurationText.Format(l.Timeout)));
        return o;
    }

    private static JsonObject Check(FindingCheck c)
    {
        var o = new JsonObject
        {
            { "rule", Scalar(c.Rule) }, { "root", Scalar(c.Root) }, { "userMethod", Scalar(c.UserMethod) },
            { "blockingCall", Scalar(c.BlockingCall) }, { "severity", Scalar(c.Severity) },
        };
        if (c.At is { } at)
        {
            o.Add("at", Scalar(at));
        }
        return o;
    }

    // Relative to the plan when they share a folder below the root (the plan moves with the project), else absolute.
    private static string Folder(string planFolder, string folder)
    {
        var relative = Path.GetRelativePath(planFolder, folder).Replace('\\', '/');
        var climbs = relative.Split('/').TakeWhile(p => p == "..").Count();
        var depth = planFolder.Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries).Length;
        return Path.IsPathRooted(relative) || climbs >= depth ? folder : relative;
    }

    private static JsonValue Number(int value) => JsonValue.Create(value);

    private static JsonValue Scalar(string value) => JsonValue.Create(value);
}
