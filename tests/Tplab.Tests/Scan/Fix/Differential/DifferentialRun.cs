using System.Diagnostics;
using System.Globalization;
using System.Text;
using Tplab.Lab.Plans;
using Tplab.Launch;
using Tplab.Launch.Service;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>
/// The differential harness (docs/fix.md, "Behaviour kept"): one copy of an app built as it is, another built after
/// <c>tplab fix --apply</c>, both started as real processes, and each fixed endpoint called on both at once —
/// <see cref="Exchange.Concurrency"/> copies of its success request (the route filled to fit, from fix's own
/// <c>--plan</c>), of the error and cancellation requests of the app's <c>.http</c> files, and of the success
/// request aborted mid-way. Answers are compared as sets; after every batch the app's side effects (its
/// <c>@observe</c> requests) are compared once both settle, and both processes must still run. Each app is built once
/// and started once per comparison (<see cref="ServiceProcess"/>, as the lab starts a user's service).
/// </summary>
internal static class DifferentialRun
{
    /// <summary>When the client gives up on a plan request for the cancellation path: mid-way through a short wait.</summary>
    public static readonly TimeSpan DefaultAbort = TimeSpan.FromMilliseconds(30);

    private static readonly TimeSpan SettleLimit = TimeSpan.FromSeconds(20);

    /// <summary>The whole run on <paramref name="app"/>: its copy as it is against its copy after <c>tplab fix --apply</c>.</summary>
    public static async Task<DifferentialReport> RunAsync(string app, CancellationToken ct)
    {
        using var original = AppCopies.Original(app);
        var fixedCopy = ChangeAsync(original, AppCopies.FixAsync, ct);
        await original.BuildAsync(ct);
        return await CompareAsync(original, await fixedCopy, ct);
    }

    /// <summary>A second copy of the original changed by <paramref name="change"/> (fix, or a test's own edit), then built.</summary>
    public static async Task<ChangedCopy> ChangeAsync(OriginalCopy original, Func<string, CancellationToken, Task<FixOutcome>> change, CancellationToken ct)
    {
        var folder = AppCopies.Copy(original.Source, original.Root, "after-" + Guid.NewGuid().ToString("N")[..8]);
        var outcome = await change(folder, ct);
        return new ChangedCopy(folder, outcome, await AppCopies.BuildAsync(folder, ct));
    }

    /// <summary>The original and a changed copy compared: both started, the requests sent to both, the differences.</summary>
    public static async Task<DifferentialReport> CompareAsync(OriginalCopy original, ChangedCopy changed, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        var before = await original.BuildAsync(ct);
        var (fix, after) = (changed.Fix, changed.Build);
        var name = Path.GetFileName(original.Source.TrimEnd('/'));
        if (!before.Compiles || !after.Compiles)
        {
            return new DifferentialReport(name, fix.ExitCode, fix.Output, fix.Findings, before, after, [], [], 0, clock.Elapsed);
        }
        var requests = Requests(original.Source, fix.Plan);
        var (differences, sent) = await CompareAsync(before.Dll!, after.Dll!, requests, ct);
        var called = requests.Where(r => !r.Observes).Select(r => $"{r.Method} {r.PathAndQuery}").Distinct(StringComparer.Ordinal).ToList();
        return new DifferentialReport(name, fix.ExitCode, fix.Output, fix.Findings, before, after, called, differences, sent, clock.Elapsed);
    }

    /// <summary>The plan's success requests, each also aborted; then the app's own .http requests.</summary>
    private static List<ProbeRequest> Requests(string app, string? plan)
    {
        var requests = new List<ProbeRequest>();
        if (plan is not null)
        {
            foreach (var scenario in PlanReader.Read(plan).Scenarios)
            {
                var r = scenario.Requests[0];
                var body = r.Body.IsEmpty ? null : Encoding.UTF8.GetString(r.Body.Span);
                var named = r.Name ?? scenario.Name ?? r.Label;
                requests.Add(new ProbeRequest(named, r.Method, r.Path, r.Headers, body, null, false));
                requests.Add(new ProbeRequest(named, r.Method, r.Path, r.Headers, body, DefaultAbort, false));
            }
        }
        foreach (var file in Directory.GetFiles(app, "*.http", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            requests.AddRange(HttpFile.Read(file));
        }
        return requests;
    }

    private static async Task<(List<Difference> Differences, int Sent)> CompareAsync(string beforeDll, string afterDll, List<ProbeRequest> requests, CancellationToken ct)
    {
        await using var before = await StartAsync(beforeDll, ct);
        await using var after = await StartAsync(afterDll, ct);
        using var handler = new SocketsHttpHandler { MaxConnectionsPerServer = 256, PooledConnectionLifetime = TimeSpan.FromMinutes(1) };
        using var client = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan };
        var differences = new List<Difference>();
        var observers = requests.Where(r => r.Observes).ToList();
        var sent = 0;
        foreach (var request in requests.Where(r => !r.Observes))
        {
            var answers = await Task.WhenAll(
                Exchange.SendAsync(client, before.BaseAddress, request, Exchange.Concurrency, ct),
                Exchange.SendAsync(client, after.BaseAddress, request, Exchange.Concurrency, ct));
            sent += 2 * Exchange.Concurrency;
            // An aborted request's answer depends on time (the fixed build answers sooner); what it did does not.
            if (request.AbortAfter is null && !answers[0].SequenceEqual(answers[1], StringComparer.Ordinal))
            {
                differences.Add(new Difference(request.Name, request.ToString(), Summary(answers[0]), Summary(answers[1])));
            }
            foreach (var observer in observers)
            {
                if (await SettledAsync(client, before.BaseAddress, after.BaseAddress, observer, ct) is { } effects)
                {
                    differences.Add(new Difference(request.Name, $"{request}, then {observer}", effects.Before, effects.After));
                }
            }
            if (before.Exited is not null || after.Exited is not null)
            {
                differences.Add(new Difference(request.Name, request.ToString(), Alive(before), Alive(after)));
                break;
            }
        }
        return (differences, sent);
    }

    /// <summary>Null once both apps answer an observing request alike (twice in a row: work still queued shows as a change); else both last answers.</summary>
    private static async Task<(string Before, string After)?> SettledAsync(HttpClient client, Uri before, Uri after, ProbeRequest observer, CancellationToken ct)
    {
        var limit = Stopwatch.StartNew();
        string? last = null;
        while (true)
        {
            var b = await Exchange.OneAsync(client, before, observer, ct);
            var a = await Exchange.OneAsync(client, after, observer, ct);
            if (b == a && b == last)
            {
                return null;
            }
            if (limit.Elapsed > SettleLimit)
            {
                return (b, a);
            }
            last = b == a ? b : null;
            await Task.Delay(100, ct);
        }
    }

    private static string Alive(ServiceProcess app) => app.Exited is { } exited ? "the process " + exited : "running";

    // A built app started as its team starts it in production (dotnet app.dll, the Production environment: a 500 has no
    // developer page) by the lab's own service starter: a free loopback port in ASPNETCORE_URLS, ready once it answers,
    // its whole process group ended with the test host (the guardian), even by kill -9.
    private static Task<ServiceProcess> StartAsync(string dll, CancellationToken ct) => ServiceProcess.StartAsync(
        new ServiceDefinition
        {
            Command = $"'{DotnetHost.Path}' exec '{dll}'",
            WorkingDirectory = Path.GetDirectoryName(dll)!,
            Environment = [new("ASPNETCORE_ENVIRONMENT", "Production"), new("DOTNET_ENVIRONMENT", "Production")],
            StartTimeout = TimeSpan.FromSeconds(90),
        },
        ThreadPoolSettings.Default,
        ct);

    // "16 × 200 quote 13.00", or each distinct answer with its count.
    private static string Summary(IReadOnlyList<string> answers) =>
        string.Join(" | ", answers.GroupBy(a => a, StringComparer.Ordinal).Select(g => string.Create(CultureInfo.InvariantCulture, $"{g.Count()} × {Short(g.Key)}")));

    private static string Short(string answer) => answer.Length <= 200 ? answer.ReplaceLineEndings("⏎") : answer[..200].ReplaceLineEndings("⏎") + "…";
}
