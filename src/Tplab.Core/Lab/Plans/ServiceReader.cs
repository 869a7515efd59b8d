using System.Text;
using System.Text.Json.Nodes;
using Tplab.Lab.Experiments;
using Tplab.Launch;
using Tplab.Launch.Service;
using static Tplab.Lab.Plans.PlanReader;

namespace Tplab.Lab.Plans;

/// <summary>Reads a plan's <c>service</c> section and the scenarios that load it (docs/lab.md, "Your own service").</summary>
internal static class ServiceReader
{
    private static readonly string[] Methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

    public static ServiceDefinition Read(FieldReader r, JsonObject o)
    {
        const string at = "service";
        r.OnlyKnown(o, at, "command", "workingDirectory", "environment", "url", "ready", "startTimeout", "pid", "minThreadsVia", "minThreadsSetting", "warmUp");
        var command = r.String(o, at, "command");
        var pid = r.Int(o, at, "pid", 1, int.MaxValue);
        var urlText = r.String(o, at, "url");
        Uri? url = null;
        if (urlText is not null && (!Uri.TryCreate(urlText, UriKind.Absolute, out url) || url.Scheme is not ("http" or "https")))
        {
            throw Error(r.Path, "service.url", $"must be an absolute http:// URL, got '{urlText}'");
        }
        if (url is not null && !Load.LoadOptions.IsLoopback(url))
        {
            // The lab loads, watches and diagnoses a process on this machine; sending its load elsewhere is what
            // tplab load --allow-remote is for, not a plan.
            throw Error(r.Path, "service.url", $"must be on this machine (127.0.0.0/8, ::1, localhost), got '{urlText}'");
        }
        if ((command is null) == (pid is null))
        {
            throw Error(r.Path, at, "give either 'command' (tplab starts the service for each scenario) or 'pid' and 'url' (a running service)");
        }
        if (pid is not null && url is null)
        {
            throw Error(r.Path, "service.url", "is required with 'pid'");
        }
        var via = r.String(o, at, "minThreadsVia") switch
        {
            null => (MinThreadsVia?)null,
            "runtimeconfig" => MinThreadsVia.RuntimeConfig,
            "environment" => MinThreadsVia.Environment,
            "setting" => MinThreadsVia.Setting,
            var other => throw Error(r.Path, "service.minThreadsVia", $"must be runtimeconfig, environment or setting, got '{other}'"),
        };
        var setting = r.String(o, at, "minThreadsSetting");
        if ((via == MinThreadsVia.Setting) != (setting is not null))
        {
            throw Error(r.Path, "service.minThreadsSetting", "names the environment variable your app reads for SetMinThreads; it goes with minThreadsVia: setting, and only with it");
        }
        if (via == MinThreadsVia.RuntimeConfig && DotnetCommand.TryParse(command) is null)
        {
            throw Error(r.Path, "service.minThreadsVia", "runtimeconfig needs a plain 'dotnet APP.dll' command (tplab runs it with a generated runtimeconfig.json)");
        }
        var ready = r.String(o, at, "ready");
        return new ServiceDefinition
        {
            Command = command,
            WorkingDirectory = r.RelativeToPlan(r.String(o, at, "workingDirectory") ?? "."),
            Environment = r.Map(o, at, "environment"),
            Url = url is null ? null : new Uri(url.GetLeftPart(UriPartial.Authority) + "/"),
            ReadyPath = ready is null ? null : "/" + ready.TrimStart('/'),
            StartTimeout = r.Duration(o, at, "startTimeout") ?? TimeSpan.FromSeconds(60),
            ProcessId = pid,
            MinThreadsVia = via,
            MinThreadsSetting = setting,
            WarmUpRequests = r.Int(o, at, "warmUp", 0, 10_000) ?? 8,
        };
    }

    public static Scenario Scenario(FieldReader r, ServiceDefinition service, string experiment, JsonObject o, string at)
    {
        r.OnlyKnown(o, at, "id", "requests", "minThreads", "knobs", "load", "deadline", "enabled", "checks");
        var list = r.List(o, at, "requests");
        var requests = list.Select((n, i) => Request(r, n, Join(at, $"requests[{i}]"))).ToList();
        var pool = new ThreadPoolSettings { MinThreads = r.Int(o, at, "minThreads", 1, short.MaxValue), Knobs = r.Knobs(o, at) };
        if (service.ProcessId is int pid && pool != ThreadPoolSettings.Default)
        {
            throw Error(r.Path, at, $"process {pid} is already running, so its pool settings cannot change: give service.command to let tplab start it, or drop minThreads and knobs");
        }
        var load = ReadLoad(r, o["load"] as JsonObject ?? throw Error(r.Path, Join(at, "load"), "is required (an object)"), Join(at, "load"));
        var given = r.String(o, at, "id");
        return new Scenario
        {
            Experiment = experiment, Id = given ?? AutoId(Slug(requests[0].Path), pool, load), Name = given, Requests = requests,
            ThreadPool = pool, Load = load, Deadline = r.Duration(o, at, "deadline") ?? TimeSpan.FromMinutes(5),
            Enabled = r.Bool(o, at, "enabled") ?? true,
            Checks = o["checks"] is { } checks ? FindingChecks.ReadList(r, checks, Join(at, "checks")) : [],
        };
    }

    private static RequestSpec Request(FieldReader r, JsonNode? node, string at)
    {
        if (node is JsonValue v && v.TryGetValue<string>(out var pathOnly))
        {
            return new RequestSpec("GET", CheckPath(r, pathOnly, at), [], ReadOnlyMemory<byte>.Empty);
        }
        var o = node as JsonObject ?? throw Error(r.Path, at, "must be a path or an object with method, path, headers, body or bodyFile, weight, name");
        r.OnlyKnown(o, at, "method", "path", "headers", "body", "bodyFile", "weight", "name");
        var method = (r.String(o, at, "method") ?? "GET").ToUpperInvariant();
        if (!Methods.Contains(method, StringComparer.Ordinal))
        {
            throw Error(r.Path, Join(at, "method"), $"must be one of {string.Join(", ", Methods)}, got '{method}'");
        }
        var path = CheckPath(r, r.String(o, at, "path") ?? throw Error(r.Path, Join(at, "path"), "is required (for example /orders/42)"), Join(at, "path"));
        var body = r.String(o, at, "body");
        var bodyFile = r.String(o, at, "bodyFile");
        if (body is not null && bodyFile is not null)
        {
            throw Error(r.Path, at, "give 'body' or 'bodyFile', not both");
        }
        ReadOnlyMemory<byte> bytes = body is not null ? Encoding.UTF8.GetBytes(body) : ReadOnlyMemory<byte>.Empty;
        if (bodyFile is not null)
        {
            var file = r.RelativeToPlan(bodyFile);
            try
            {
                bytes = File.ReadAllBytes(file);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                throw Error(r.Path, Join(at, "bodyFile"), $"cannot read {file}: {e.Message}");
            }
        }
        return new RequestSpec(method, path, r.Map(o, at, "headers"), bytes, r.Int(o, at, "weight", 1, 1_000_000) ?? 1, r.String(o, at, "name"));
    }

    private static string CheckPath(FieldReader r, string path, string at) =>
        path.StartsWith('/') && Uri.TryCreate("http://h" + path, UriKind.Absolute, out _) ? path
            : throw Error(r.Path, at, $"must be a path on the service starting with '/', got '{path}'");

    private static string Slug(string path)
    {
        var chars = path.TrimStart('/').Split('?')[0].Select(c => char.IsAsciiLetterOrDigit(c) ? char.ToLowerInvariant(c) : '-').ToArray();
        var slug = new string(chars).Trim('-');
        return slug.Length == 0 ? "root" : slug;
    }
}
