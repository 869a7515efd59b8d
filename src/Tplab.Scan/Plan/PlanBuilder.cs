using System.Globalization;
using Tplab.Blocking;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Launch.Service;
using Tplab.Scan.Findings;
using Tplab.Scan.Output;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Plan;

/// <summary>
/// Turns a scan's findings into a lab plan for the scanned service (docs/scan.md, "From finding to proof"): the
/// service started with <c>dotnet run</c> on a free port, one scenario per flagged endpoint carrying the findings it
/// checks, writes switched off unless asked, and the findings with no endpoint watched under the plan's load.
/// </summary>
public static class PlanBuilder
{
    // The load per scenario. Starvation shows when more requests block at once than the pool has threads: the pool
    // starts with one worker per core and adds about one a second (or two, with cooperative blocking) beyond that,
    // so 32 users, or 4 per core on a bigger machine, outnumber it for the whole run. The lab's quick profile of
    // ab-100 (40 at once) and siege-db (30 users) starve the 2-core reference machine within a second at 1 s waits;
    // 10 s of load leaves diagnose's 2 s capture room after the first starving sample, and bounds the scenario.
    private static readonly TimeSpan LoadDuration = TimeSpan.FromSeconds(10);

    /// <summary>Users per scenario on this machine.</summary>
    public static int Concurrency => Math.Max(32, 4 * Environment.ProcessorCount);

    private static readonly string[] Writes = ["POST", "PUT", "PATCH", "DELETE"];

    /// <summary>The plan for <paramref name="result"/>; the lines to say about it in <paramref name="notes"/>; <paramref name="by"/> names the command that wrote it.</summary>
    public static Experiment Build(ScanResult result, bool writes, List<string> notes, string by = "tplab scan --plan")
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(notes);
        var live = result.Findings.Where(f => !f.Baselined).ToList();
        if (live.Count == 0)
        {
            throw Common.TplabException.Usage("--plan: the scan found nothing to check (baselined findings are left out)");
        }
        var (project, findings) = ServiceProject.Choose(live);
        if (findings.Count < live.Count)
        {
            notes.Add(string.Create(CultureInfo.InvariantCulture, $"{live.Count - findings.Count} finding(s) outside {Path.GetFileName(project)} are left out of the plan (one service per plan)"));
        }
        var name = Safe("scan-" + Path.GetFileNameWithoutExtension(project));
        var scenarios = new List<Scenario>();
        var ids = new HashSet<string>(StringComparer.Ordinal);
        // A site reached from several endpoints is checked under each of them: the endpoints come from the sites' roots.
        var reached = findings.SelectMany(f => f.Roots.Select(r => (Finding: f, Root: r, Endpoint: Target(r.Root)))).ToList();
        foreach (var endpoint in reached.Where(x => x.Endpoint is not null).GroupBy(x => x.Endpoint!.ToString(), StringComparer.Ordinal))
        {
            var target = endpoint.First().Endpoint!;
            var handler = endpoint.Select(x => x.Root.Root).FirstOrDefault(r => r.Endpoint == target);
            var request = EndpointRequest.For(target, handler);
            var enabled = writes || !Writes.Contains(request.Method);
            scenarios.Add(new Scenario
            {
                Experiment = name, Id = UniqueId(request, ids), Name = request.Name, Requests = [request],
                Load = new LoadProfile { Concurrency = Concurrency, Duration = LoadDuration, Timeout = TimeSpan.FromSeconds(30) },
                Deadline = TimeSpan.FromMinutes(2), Enabled = enabled, Checks = [.. endpoint.Select(x => Check(x.Finding, x.Root))],
            });
        }
        var loaded = reached.Where(x => x.Endpoint is not null).Select(x => x.Finding.Id).ToHashSet(StringComparer.Ordinal);
        var watch = reached.Where(x => x.Endpoint is null && !loaded.Contains(x.Finding.Id))
            .DistinctBy(x => x.Finding.Id).Select(x => Check(x.Finding, x.Root)).ToList();
        if (scenarios.All(s => !s.Enabled))
        {
            throw Common.TplabException.Usage(scenarios.Count == 0
                ? "--plan: no finding has an endpoint to load; the others (hosted services, timers, factories) need some load to be watched under"
                : "--plan: every flagged endpoint is a write (POST, PUT, PATCH, DELETE), switched off by default: --plan-writes switches them on (they change the service's data)");
        }
        return new Experiment
        {
            Name = name, Title = $"plan {name}", Seeds = [], Scaling = by,
            Scenarios = [.. scenarios.Where(s => s.Enabled)], SwitchedOff = [.. scenarios.Where(s => !s.Enabled)], Watch = watch,
            Service = new ServiceDefinition
            {
                // --no-launch-profile: launchSettings.json's applicationUrl and Development environment would override the
                // free port below and run the app unlike production.
                Command = $"dotnet run --project {Quote(Path.GetFileName(project))} -c Release --no-launch-profile",
                WorkingDirectory = Path.GetDirectoryName(project)!,
                Environment =
                [
                    // Port 0: tplab replaces it with a free port it chose, so an app that logs at Warning starts too (docs/lab.md).
                    KeyValuePair.Create("ASPNETCORE_URLS", "http://127.0.0.1:0"),
                    // dotnet run builds first: no MSBuild node or compiler server may outlive the service's process group.
                    KeyValuePair.Create("MSBUILDDISABLENODEREUSE", "1"),
                    KeyValuePair.Create("DOTNET_CLI_USE_MSBUILD_SERVER", "0"),
                    KeyValuePair.Create("UseSharedCompilation", "false"),
                ],
                // The first start builds the project in Release.
                StartTimeout = TimeSpan.FromMinutes(3),
            },
        };
    }

    /// <summary>The lines at the top of the plan file: where it came from and what it will do.</summary>
    public static IReadOnlyList<string> Header(Experiment plan, ScanResult result, bool writes, string by = "tplab scan --plan")
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(result);
        var c = CultureInfo.InvariantCulture;
        var checks = plan.Scenarios.Concat(plan.SwitchedOff).Sum(s => s.Checks.Count);
        return
        [
            $"Written by {by} from {result.Input.DisplayName}: {checks} finding(s) on {plan.Scenarios.Count + plan.SwitchedOff.Count} endpoint(s), {plan.Watch.Count} watched.",
            "Run it: tplab run --plan THIS_FILE. Each finding ends confirmed (diagnose names the same method and call), not seen, or not reached.",
            string.Create(c, $"Load per scenario: {Concurrency} users for {LoadDuration.TotalSeconds:0} s, more than the pool's minimum ({Environment.ProcessorCount} threads here, one per core) so blocking calls starve it."),
            writes
                ? "Writes (POST, PUT, PATCH, DELETE) are switched on (--plan-writes): they change the service's data, wherever it keeps it."
                : "Writes (POST, PUT, PATCH, DELETE) are switched off (enabled: false) so a plan never writes to a real database by surprise.",
            "Route values, queries and bodies are samples that fit the types and constraints; edit them to match real data.",
            "",
        ];
    }

    // The endpoint whose load checks a finding: its own; for a middleware or filter that guards some paths or endpoints
    // only, the first of them (a request there passes it); none for code every request passes, or none at all (watched).
    private static HttpEndpoint? Target(EntryPoint root)
    {
        if (root.Endpoint is { } own)
        {
            return own;
        }
        if (root.Place is not (CodePlace.Middleware or CodePlace.Filter) || root.Guards.Count == 0)
        {
            return null;
        }
        var guard = root.Guards[0].TrimEnd('*').TrimEnd('/');
        var space = guard.IndexOf(' ', StringComparison.Ordinal);
        return space > 0 && guard[..space].All(char.IsAsciiLetterUpper)
            ? new HttpEndpoint(guard[..space], guard[(space + 1)..])
            : guard.StartsWith('/') ? new HttpEndpoint("GET", guard) : null;
    }

    // The check of a site under one of its entry points: that entry point's own severity.
    private static FindingCheck Check(Finding f, SiteRoot root) => new(
        PlaceWords.KindId(f.Call.Kind), root.Root.Key, f.UserFrame, f.Call.Name, ScanJsonFormat.SeverityId(root.Severity),
        $"{f.Site.File}:{f.Site.Line.ToString(CultureInfo.InvariantCulture)}");

    private static string UniqueId(RequestSpec request, HashSet<string> taken)
    {
        // "GET /orders/{id:int}" → get-orders-id: the words of the method and route, constraint names left out.
        var words = System.Text.RegularExpressions.Regex.Split(request.Name!.ToLowerInvariant(), "[^a-z0-9]+")
            .Where(w => w.Length > 0 && w is not ("int" or "guid" or "long" or "alpha" or "nonfile" or "bool" or "datetime"));
        var slug = string.Join('-', words);
        var id = Safe(slug.Length > 56 ? slug[..56].TrimEnd('-') : slug);
        var unique = id;
        for (var n = 2; !taken.Add(unique); n++)
        {
            unique = $"{id}-{n.ToString(CultureInfo.InvariantCulture)}";
        }
        return unique;
    }

    private static string Safe(string name)
    {
        var chars = name.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' ? c : '-').ToArray();
        var safe = new string(chars).Trim('-', '.');
        safe = safe.Length > 64 ? safe[..64] : safe;
        return PlanReader.IsSafeName(safe) ? safe : "scan";
    }

    private static string Quote(string file) => file.Contains(' ', StringComparison.Ordinal) ? $"'{file}'" : file;
}
