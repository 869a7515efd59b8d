using System.Text.Json;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Launch;
using Tplab.Launch.Service;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>
/// A plan that names the user's own service (tests/Tplab.OrdersService, not tplab's target): tplab starts it fresh per
/// scenario, applies pool settings the user's way, sends the request mix as clients do, and leaves nothing running.
/// </summary>
[Collection(TestCollections.Orders)]
public sealed class UserServiceTests : IDisposable
{
    private static readonly HttpClient Http = new();
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-service-test-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private string Write(string name, string text)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, text);
        return path;
    }

    private static ServiceDefinition Service(MinThreadsVia? via = null, string? setting = null) => new()
    {
        Command = OrdersService.Command, WorkingDirectory = OrdersService.Folder, ReadyPath = "/health",
        MinThreadsVia = via, MinThreadsSetting = setting,
    };

    [Theory]
    [InlineData(MinThreadsVia.RuntimeConfig, null)]           // a generated runtimeconfig.json, as ThreadPoolMinThreads makes
    [InlineData(MinThreadsVia.Environment, null)]             // DOTNET_ThreadPool_ForceMinWorkerThreads, in hex
    [InlineData(MinThreadsVia.Setting, "ThreadPool__MinThreads")] // the app's own configuration, passed to SetMinThreads
    public async Task StartAsync_MinThreads_ReachesTheServiceTheWayTheUserSetsIt(MinThreadsVia via, string? setting)
    {
        await using var service = await ServiceProcess.StartAsync(Service(via, setting), new ThreadPoolSettings { MinThreads = 37 }, CancellationToken.None);
        using var pool = JsonDocument.Parse(await Http.GetStringAsync(new Uri(service.BaseAddress, "pool")));
        Assert.Equal(37, pool.RootElement.GetProperty("minWorkerThreads").GetInt32());
        Assert.Contains(service.ProcessId, service.Members());
    }

    [Fact]
    public void Apply_EnvironmentForm_WritesTheMinimumInHex()
    {
        var (_, environment, address) = ServiceProcess.Apply(Service(MinThreadsVia.Environment), OrdersService.Command, new ThreadPoolSettings { MinThreads = 100 });
        Assert.Equal("64", environment[ThreadPoolForms.MinThreadsEnvironment]);
        // No log line needed: tplab chose the port and passes it.
        Assert.Equal(address.GetLeftPart(UriPartial.Authority), environment["ASPNETCORE_URLS"]);
        Assert.Equal("127.0.0.1", address.Host);
        Assert.NotEqual(0, address.Port);
    }

    [Fact]
    public void Apply_RuntimeConfigKnobOnANonDotnetCommand_IsAUsageError()
    {
        var service = Service() with { Command = "./run-my-app.sh" };
        var error = Assert.Throws<TplabException>(() => ServiceProcess.Apply(service, service.Command!, new ThreadPoolSettings { Knobs = [new("System.Threading.ThreadPool.HillClimbing.Disable", "true")] }));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("dotnet APP.dll", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task StartAsync_AppThatLogsAtWarning_IsFoundOnThePortTplabChose()
    {
        // Production logging: no "Now listening on:" line ever comes; a plan scan wrote keeps its port 0.
        var service = Service() with
        {
            Environment =
            [
                new("Logging__LogLevel__Default", "Warning"), new("Logging__LogLevel__Microsoft.Hosting.Lifetime", "Warning"),
                new("ASPNETCORE_URLS", "http://127.0.0.1:0"),
            ],
            StartTimeout = TimeSpan.FromSeconds(60),
        };
        await using var started = await ServiceProcess.StartAsync(service, ThreadPoolSettings.Default, CancellationToken.None);
        Assert.NotEqual(0, started.BaseAddress.Port);
        using var health = await Http.GetAsync(new Uri(started.BaseAddress, "health"));
        Assert.True(health.IsSuccessStatusCode);
    }

    [Fact]
    public async Task StartAsync_AppWhoseConfigurationMovesItsPort_IsFoundWhereItsProcessListens()
    {
        // Kestrel endpoints in configuration override ASPNETCORE_URLS (as appsettings.json's would), and the app logs at
        // Warning: the only trace of the port is the socket its process listens on.
        var port = FreePort();
        var service = Service() with
        {
            Environment =
            [
                new("Logging__LogLevel__Default", "Warning"), new("Logging__LogLevel__Microsoft.Hosting.Lifetime", "Warning"),
                new("Kestrel__Endpoints__Main__Url", $"http://127.0.0.1:{port}"),
            ],
        };
        await using var started = await ServiceProcess.StartAsync(service, ThreadPoolSettings.Default, CancellationToken.None);
        Assert.Equal(port, started.BaseAddress.Port);
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    [Fact]
    public async Task Run_ServiceThatNeverAnswers_FailsOnceAndTheOtherScenariosAreNotRun()
    {
        var plan = Write("silent.yaml", $$"""
            name: silent
            service: { command: 'exec sleep 60', startTimeout: 2s }
            scenarios:
              - { id: one, requests: [/], load: { concurrency: 1, requests: 1 } }
              - { id: two, requests: [/], load: { concurrency: 1, requests: 1 } }
              - { id: three, requests: [/], load: { concurrency: 1, requests: 1 } }
            """);
        var (code, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1), "run", "--plan", plan, "--results", Path.Combine(_folder, "results"), "--no-diagnose");
        Assert.True(code == ExitCodes.Environment, $"exit {code}: {stderr}\n{stdout}");
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("silent/one (the service was not ready after 2s (nothing answered at http://127.0.0.1:", line, StringComparison.Ordinal);
        Assert.Contains("silent/two (not run: the service did not start for one)", line, StringComparison.Ordinal);
        Assert.Contains("silent/three (not run: the service did not start for one)", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task StartAsync_ServiceThatExitsAtOnce_FailsWithItsLastOutputInOneLine()
    {
        var service = Service() with { Command = "echo listening on nothing; exit 3" };
        var error = await Assert.ThrowsAsync<TplabException>(() => ServiceProcess.StartAsync(service, ThreadPoolSettings.Default, CancellationToken.None));
        Assert.Equal(ExitCodes.Environment, error.ExitCode);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Theory]
    // what is missing or contradictory, and the field named in the one line
    [InlineData("service: { url: 'http://127.0.0.1:1' }", "service: give either 'command'")]
    [InlineData("service: { pid: 1 }", "service.url: is required with 'pid'")]
    [InlineData("service: { command: ./app, minThreadsVia: runtimeconfig }", "service.minThreadsVia: runtimeconfig needs a plain 'dotnet APP.dll' command")]
    [InlineData("service: { command: ./app, minThreadsVia: setting }", "service.minThreadsSetting")]
    [InlineData("service: { command: ./app, colour: blue }", "service.colour: unknown field")]
    public void Read_BadServiceSection_NamesTheField(string service, string expected)
    {
        var path = Write("bad.yaml", service + "\nscenarios:\n  - { id: a, requests: [/x], load: { concurrency: 1, requests: 1 } }\n");
        var error = Assert.Throws<TplabException>(() => PlanReader.Read(path));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_RunningProcessWithPoolSettings_IsAUsageError()
    {
        var path = Write("pid.yaml", "service: { pid: 1, url: 'http://127.0.0.1:1' }\nscenarios:\n  - { id: a, requests: [/x], minThreads: 50, load: { concurrency: 1, requests: 1 } }\n");
        var error = Assert.Throws<TplabException>(() => PlanReader.Read(path));
        Assert.Contains("scenarios[0]: process 1 is already running, so its pool settings cannot change", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_ServicePlan_ReadsRequestsWithWeightsHeadersAndBodyFile()
    {
        Write("order.json", """{"sku":3}""");
        var path = Write("plan.yaml", """
            service: { command: dotnet app.dll, workingDirectory: app }
            scenarios:
              - id: orders
                requests:
                  - /orders/1
                  - { method: post, path: /orders, headers: { Content-Type: application/json }, bodyFile: order.json, weight: 2, name: place }
                load: { concurrency: 4, requests: 8 }
            """);
        var plan = PlanReader.Read(path);
        Assert.Equal(Path.Combine(_folder, "app"), plan.Service!.WorkingDirectory);
        Assert.Equal(MinThreadsVia.RuntimeConfig, plan.Service.EffectiveMinThreadsVia);
        var s = Assert.Single(plan.Scenarios);
        Assert.Null(s.Variant);
        Assert.Equal(["GET /orders/1", "place"], s.Requests.Select(r => r.Label));
        var post = s.Requests[1];
        Assert.Equal(("POST", 2, """{"sku":3}"""), (post.Method, post.Weight, System.Text.Encoding.UTF8.GetString(post.Body.Span)));
        Assert.Equal(new KeyValuePair<string, string>("Content-Type", "application/json"), Assert.Single(post.Headers));
    }

    [Fact]
    public async Task Run_PlanNamingOwnService_FreshProcessPerScenarioFiguresPerEndpointAndCompare()
    {
        var results = Path.Combine(_folder, "results");
        // 16 users blocking 1 s each on a default minimum of the core count: the pool starves for seconds
        var planA = Write("a.yaml", OrdersService.Plan("orders", users: 16, latencyMs: 1000));
        var planB = Write("b.yaml", OrdersService.Plan("orders", users: 16, latencyMs: 1000, minThreads: 32));
        var a = await TplabCli.RunAsync(TimeSpan.FromMinutes(2), "run", "--plan", planA, "--results", Path.Combine(results, "a"));
        Assert.True(a.ExitCode == 0, $"exit {a.ExitCode}: {a.Stderr}\n{a.Stdout}");
        var b = await TplabCli.RunAsync(TimeSpan.FromMinutes(2), "run", "--plan", planB, "--results", Path.Combine(results, "b"), "--no-diagnose", "--repeat", "2");
        Assert.True(b.ExitCode == 0, $"exit {b.ExitCode}: {b.Stderr}\n{b.Stdout}");
        var runA = Assert.Single(Directory.GetDirectories(Path.Combine(results, "a")));
        var runB = Assert.Single(Directory.GetDirectories(Path.Combine(results, "b")));

        using var summaryA = JsonDocument.Parse(File.ReadAllText(Path.Combine(runA, "summary.json")));
        using var summaryB = JsonDocument.Parse(File.ReadAllText(Path.Combine(runB, "summary.json")));
        var experiment = Assert.Single(summaryA.RootElement.GetProperty("experiments").EnumerateArray());
        Assert.Equal(OrdersService.Command, experiment.GetProperty("service").GetProperty("command").GetString());
        var sa = Assert.Single(summaryA.RootElement.GetProperty("scenarios").EnumerateArray());
        var sb = Assert.Single(summaryB.RootElement.GetProperty("scenarios").EnumerateArray());
        foreach (var s in new[] { sa, sb })
        {
            Assert.Equal("completed", s.GetProperty("status").GetString());
            Assert.Equal(32, s.GetProperty("load").GetProperty("succeeded").GetInt64());
            Assert.Equal([3, 1], s.GetProperty("requests").EnumerateArray().Select(q => q.GetProperty("weight").GetInt32()));
            var endpoints = s.GetProperty("load").GetProperty("targets").EnumerateArray().ToList();
            Assert.Equal(["GET /orders/42", "place order"], endpoints.Select(e => e.GetProperty("label").GetString()));
            // 3:1 weights over 32 requests; the POST's JSON body reached the app (it answers 400 without one)
            Assert.Equal([24L, 8L], endpoints.Select(e => e.GetProperty("requests").GetInt64()));
            Assert.All(endpoints, e => Assert.Equal(0, e.GetProperty("failed").GetInt64()));
            Assert.True(s.GetProperty("cost").GetProperty("peakRssMb").GetDouble() > 10);
        }
        // --repeat 2: both runs' figures, their spread, and each run's files; the median run stands for the scenario
        var repeats = sb.GetProperty("repeats").EnumerateArray().ToList();
        Assert.Equal([1, 2], repeats.Select(x => x.GetProperty("run").GetInt32()));
        var meanSpread = sb.GetProperty("spread").GetProperty("meanMs");
        Assert.Equal(2, meanSpread.GetProperty("runs").GetInt32());
        Assert.InRange(meanSpread.GetProperty("mean").GetDouble(), meanSpread.GetProperty("min").GetDouble(), meanSpread.GetProperty("max").GetDouble());
        Assert.True(File.Exists(Path.Combine(runB, "orders", "orders.run1.requests.csv")));
        Assert.True(File.Exists(Path.Combine(runB, "orders", "orders.run2.requests.csv")));
        Assert.Contains("orders ×2", b.Stdout, StringComparison.Ordinal);
        // each scenario ran on its own fresh process, and none is left
        var pids = new[] { sa, sb }.Select(s => s.GetProperty("processId").GetInt32()).ToList();
        Assert.Equal(2, pids.Distinct().Count());
        Assert.All(pids, p => Assert.False(ProcessTable.IsAlive(p), $"process {p} still runs"));
        Assert.True(await ProcessTable.EventuallyAsync(() => ProcessTable.WithCommandLine("Tplab.OrdersService.dll").Count == 0, TimeSpan.FromSeconds(10)));
        // diagnose named the app's blocking call in the default run
        Assert.True(sa.GetProperty("culprits").EnumerateArray().Any(c => c.GetProperty("userFrame").GetString()!.Contains("LegacyOrderStore", StringComparison.Ordinal)),
            $"no LegacyOrderStore culprit: {sa}\n{a.Stdout}");
        Assert.Contains("place order", a.Stdout, StringComparison.Ordinal);

        // 32 minimum threads for 16 users removes the queueing: B is better, and A against B is worse (exit 10)
        var better = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", runA, runB, "--format", "json");
        Assert.Equal(0, better.ExitCode);
        using var comparison = JsonDocument.Parse(better.Stdout);
        var verdict = Assert.Single(comparison.RootElement.GetProperty("scenarios").EnumerateArray());
        Assert.Equal("better", verdict.GetProperty("verdict").GetString());
        var worse = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", runB, Path.Combine(runA, "summary.json"), "--fail-if-worse", "10%");
        Assert.Equal(ExitCodes.Worse, worse.ExitCode);
        Assert.Contains("orders/orders: worse", worse.Stdout, StringComparison.Ordinal);
        var html = Path.Combine(_folder, "compare.html");
        var page = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), "compare", runA, runB, "--format", "html", "-o", html);
        Assert.Equal(0, page.ExitCode);
        Assert.Contains("class=\"better\">better</span>", File.ReadAllText(html), StringComparison.Ordinal);
    }

    /// <summary>
    /// tplab killed under a plan's service: the guardian's watcher ends the service's group, the path of
    /// <c>GroupSignalTests.RunPlan_ServiceUnderDotnetRun_GroupSignalled_NothingLeft</c> (KILL: a deeper tree, sh → dotnet
    /// run → the app, every process of the run checked): run by bench/suite-rows.sh.
    /// </summary>
    [BenchFact]
    [Trait("Category", Bench.RowCategory)]
    public async Task Run_KilledMidScenario_LeavesNoServiceProcessBehind()
    {
        var plan = Write("long.yaml", OrdersService.Plan("long", users: 4).Replace("requests: 8 }", "duration: 60s }", StringComparison.Ordinal));
        await using var run = TplabCli.Start("run", "--plan", plan, "--results", Path.Combine(_folder, "results"), "--no-diagnose");
        await run.WaitForLineAsync(l => l.Contains("▸ long:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        var services = ProcessTable.WithCommandLine("Tplab.OrdersService.dll");
        Assert.NotEmpty(services);

        ProcessTree.Signal(run.Id, "KILL");

        Assert.True(await ProcessTable.EventuallyAsync(() => services.All(p => !ProcessTable.IsAlive(p)), TimeSpan.FromSeconds(20)),
            $"left behind: {string.Join(", ", services.Where(ProcessTable.IsAlive))}");
    }
}
