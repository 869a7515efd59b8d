using System.Text;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Launch;
using Tplab.Launch.Service;
using static Tplab.Lab.Plans.PlanReader;

namespace Tplab.Lab.Plans;

/// <summary>Reads a plan's <c>service</c> section and the scenarios that load it (docs/lab.md, "Your own service").</summary>
internal static class ServiceReader
{
    private static readonly string[] Methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

    public static ServiceDefinition Read(FieldReader r, PlanService o)
    {
        const string at = "service";
        r.OnlyKnown(o.Unknown?.Keys, at, Known.Service);
        var command = o.Command;
        if (command is not null && command.Trim().Length == 0)
        {
            throw r.Error("service.command", "is empty; give the command that starts your service (for example: dotnet run --project src/Api)");
        }
        if (command is not null && command.Any(c => c is '\0' or '\r' or '\n'))
        {
            throw r.Error("service.command", "must be one line (it holds a line break or a NUL byte)");
        }
        var pid = r.Int(o.Pid, "service.pid", 1, int.MaxValue);
        var urlText = o.Url;
        Uri? url = null;
        if (urlText is not null && (!Uri.TryCreate(urlText, UriKind.Absolute, out url) || url.Scheme is not ("http" or "https")))
        {
            throw r.Error("service.url", $"must be an absolute http:// URL, got '{urlText}'");
        }
        if (url is not null && (url.AbsolutePath != "/" || url.Query.Length > 0 || url.Fragment.Length > 0 || url.UserInfo.Length > 0))
        {
            // The requests' paths are sent as written; a path here would be dropped, changing what is loaded.
            throw r.Error("service.url", $"must be the service's address only (scheme, host and port), got '{urlText}': {AddressOnly(url)}");
        }
        if (url is not null && !Load.LoadOptions.IsLoopback(url))
        {
            // The lab loads, watches and diagnoses a process on this machine; sending its load elsewhere is what
            // tplab load --allow-remote is for, not a plan.
            throw r.Error("service.url", $"must be on this machine (127.0.0.0/8, ::1, localhost), got '{urlText}'");
        }
        if ((command is null) == (pid is null))
        {
            throw r.Error(at, "give either 'command' (tplab starts the service for each scenario) or 'pid' and 'url' (a running service)");
        }
        if (pid is not null && url is null)
        {
            throw r.Error("service.url", "is required with 'pid'");
        }
        var via = o.MinThreadsVia switch
        {
            null => (MinThreadsVia?)null,
            "runtimeconfig" => MinThreadsVia.RuntimeConfig,
            "environment" => MinThreadsVia.Environment,
            "setting" => MinThreadsVia.Setting,
            var other => throw r.Error("service.minThreadsVia", $"must be runtimeconfig, environment or setting, got '{other}'"),
        };
        var setting = o.MinThreadsSetting;
        if ((via == MinThreadsVia.Setting) != (setting is not null))
        {
            throw r.Error("service.minThreadsSetting", "names the environment variable your app reads for SetMinThreads; it goes with minThreadsVia: setting, and only with it");
        }
        if (setting is not null && !IsVariableName(setting))
        {
            throw r.Error("service.minThreadsSetting", VariableRule);
        }
        if (via == MinThreadsVia.RuntimeConfig && DotnetCommand.TryParse(command) is null)
        {
            throw r.Error("service.minThreadsVia", "runtimeconfig needs a plain 'dotnet APP.dll' command (tplab runs it with a generated runtimeconfig.json)");
        }
        var ready = o.Ready;
        return new ServiceDefinition
        {
            Command = command,
            WorkingDirectory = r.RelativeToPlan(o.WorkingDirectory ?? "."),
            Environment = Variables(r, FieldReader.Pairs(o.Environment), "service.environment"),
            Url = url is null ? null : new Uri(url.GetLeftPart(UriPartial.Authority) + "/"),
            ReadyPath = ready is null ? null : "/" + ready.TrimStart('/'),
            StartTimeout = r.Duration(o.StartTimeout, "service.startTimeout", TimeSpan.FromSeconds(1), TimeSpan.FromHours(1)) ?? TimeSpan.FromSeconds(60),
            ProcessId = pid,
            MinThreadsVia = via,
            MinThreadsSetting = setting,
            WarmUpRequests = r.Int(o.WarmUp, "service.warmUp", 0, 10_000) ?? 8,
        };
    }

    public static Scenario Scenario(FieldReader r, ServiceDefinition service, string experiment, PlanScenario o, string at)
    {
        r.OnlyKnown(Known.Given(o, service: true), at, Known.ServiceScenario);
        var list = r.List(o.Requests, Join(at, "requests"), "a path or an object with method, path, headers, body or bodyFile, weight, name");
        var requests = list.Select((n, i) => Request(r, n, Join(at, $"requests[{i}]"))).ToList();
        var pool = new ThreadPoolSettings { MinThreads = r.Int(o.MinThreads, Join(at, "minThreads"), 1, short.MaxValue), Knobs = FieldReader.Pairs(o.Knobs) };
        if (service.ProcessId is int pid && pool != ThreadPoolSettings.Default)
        {
            throw r.Error(at, $"process {pid} is already running, so its pool settings cannot change: give service.command to let tplab start it, or drop minThreads and knobs");
        }
        var load = ReadLoad(r, o.Load ?? throw r.Error(Join(at, "load"), "is required (an object)"), Join(at, "load"));
        var given = r.Name(o.Id, Join(at, "id"));
        return new Scenario
        {
            Experiment = experiment, Id = given ?? AutoId(Slug(requests[0].Path), pool, load), Name = given, Requests = requests,
            ThreadPool = pool, Load = load, Deadline = r.Duration(o.Deadline, Join(at, "deadline"), TimeSpan.FromSeconds(1)) ?? TimeSpan.FromMinutes(5),
            Enabled = o.Enabled ?? true,
            Checks = FindingChecks.ReadList(r, o.Checks, Join(at, "checks")),
        };
    }

    private static RequestSpec Request(FieldReader r, PlanRequest o, string at)
    {
        r.OnlyKnown(o.Unknown?.Keys, at, Known.Request);
        var method = (o.Method ?? "GET").ToUpperInvariant();
        if (!Methods.Contains(method, StringComparer.Ordinal))
        {
            throw r.Error(Join(at, "method"), $"must be one of {string.Join(", ", Methods)}, got '{method}'");
        }
        var path = CheckPath(r, o.Path ?? throw r.Error(Join(at, "path"), "is required (for example /orders/42)"), Join(at, "path"));
        var body = o.Body;
        var bodyFile = o.BodyFile;
        if (body is not null && bodyFile is not null)
        {
            throw r.Error(at, "give 'body' or 'bodyFile', not both");
        }
        ReadOnlyMemory<byte> bytes = body is not null ? Encoding.UTF8.GetBytes(body) : ReadOnlyMemory<byte>.Empty;
        if (bodyFile is not null)
        {
            var file = r.RelativeToPlan(bodyFile);
            try
            {
                bytes = InputFile.ReadBytes(file, "the body file", InputLimit.Body);
            }
            catch (TplabException e)
            {
                throw r.Error(Join(at, "bodyFile"), e.Message);
            }
        }
        var headers = FieldReader.Pairs(o.Headers);
        foreach (var (name, value) in headers)
        {
            if (!Load.LoadOptions.IsToken(name))
            {
                throw r.Error(Join(at, "headers"), $"'{name}' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)");
            }
            if (value.Any(c => c is '\r' or '\n' or '\0'))
            {
                throw r.Error(Join(at, $"headers.{name}"), "holds a line break or a NUL byte; a header value is one line");
            }
        }
        return new RequestSpec(method, path, headers, bytes, r.Int(o.Weight, Join(at, "weight"), 1, 1_000_000) ?? 1, o.Name);
    }

    private static IReadOnlyList<KeyValuePair<string, string>> Variables(FieldReader r, IReadOnlyList<KeyValuePair<string, string>> variables, string at)
    {
        foreach (var (name, value) in variables)
        {
            if (!IsVariableName(name) || value.Contains('\0', StringComparison.Ordinal))
            {
                throw r.Error(Join(at, name), VariableRule + ", and its value holds no NUL byte");
            }
        }
        return variables;
    }

    private const string VariableRule = "an environment variable's name is a non-empty word without '=' or control characters";

    private static bool IsVariableName(string name) => name.Length > 0 && !name.Contains('=', StringComparison.Ordinal) && !name.Any(char.IsControl);

    // What to do with each part of service.url beyond scheme, host and port, said for the parts it has.
    private static string AddressOnly(Uri url)
    {
        var advice = new List<string>();
        if (url.UserInfo.Length > 0)
        {
            advice.Add("drop the user info (a request's headers can carry credentials)");
        }
        if (url.AbsolutePath != "/")
        {
            advice.Add($"put '{url.AbsolutePath.TrimEnd('/')}' at the start of each request's path");
        }
        if (url.Query.Length > 0)
        {
            advice.Add($"put '{url.Query}' at the end of each request's path");
        }
        if (url.Fragment.Length > 0)
        {
            advice.Add($"drop '{url.Fragment}' (a fragment is never sent)");
        }
        return string.Join("; ", advice);
    }

    // '//host/x' or '/\host/x' is another host's address to a URL parser, and a '\' becomes '/': either would send
    // another path than the one written.
    private static string CheckPath(FieldReader r, string path, string at) =>
        !path.StartsWith('/') || !Uri.TryCreate("http://h" + path, UriKind.Absolute, out _)
            ? throw r.Error(at, $"must be a path on the service starting with '/', got '{path}'")
            : path.Split('?', 2)[0].Contains('\\', StringComparison.Ordinal) || path.StartsWith("//", StringComparison.Ordinal)
                ? throw r.Error(at, $"must start with one '/' and hold no '\\' before its query (a URL parser reads them as another host or another path), got '{path}'")
                : path;

    private static string Slug(string path)
    {
        var chars = path.TrimStart('/').Split('?')[0].Select(c => char.IsAsciiLetterOrDigit(c) ? char.ToLowerInvariant(c) : '-').ToArray();
        var slug = new string(chars).Trim('-');
        return slug.Length == 0 ? "root" : slug;
    }
}
