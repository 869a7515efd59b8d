using System.Text.Json;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>
/// `tplab run` as a user runs it: a real CLI process, real targets, real load, real EventPipe; the results
/// folder checked against the documented schema and the report opened in a real Chromium.
/// </summary>
[Collection(TestCollections.Lab)]
public sealed class LabEndToEndTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-lab-test-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private string Plan(string yaml)
    {
        var path = Path.Combine(_folder, "plan.yaml");
        File.WriteAllText(path, yaml);
        return path;
    }

    // Blocking vs async under a closed loop well above the 2-core default minimum: small, but the lesson shows.
    // Sleeps of 1.5 s: no thread comes free for 500 ms, so the gate thread itself injects for starvation (shorter sleeps
    // dequeue often enough to stay under its radar), and the watch's verdict and the culprit hunt rest on that.
    // 20 users, so that the queue passes the verdict's documented minimum of 10 even when the pool starts with 4 threads
    // and the load's own connections open late on a busy machine (with 12, a pool that started at 3 queued 9 at most,
    // read 'healthy', and the hunt never began; 16 left no culprit once in a CI run beside the other test lanes).
    private const string SmallPlan = """
        name: small
        matrix:
          variants: [sleep, delay]
          waitMs: 1500
          loads:
            - { concurrency: 20, requests: 20, timeout: 30s }
        """;

    [BrowserFact]
    public async Task Run_SmallPlan_WritesSchemaFilesAndAReportThatRendersInChromium()
    {
        var results = Path.Combine(_folder, "results");
        var (code, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(3), "run", "--plan", Plan(SmallPlan), "--results", results);
        Assert.True(code == 0, $"exit {code}: {stderr}\n{stdout}");

        var run = Assert.Single(Directory.GetDirectories(results));
        using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(run, "summary.json")));
        var root = summary.RootElement;
        Assert.Equal(1, root.GetProperty("schemaVersion").GetInt32());
        Assert.Equal(Environment.ProcessorCount, root.GetProperty("cores").GetInt32());
        Assert.StartsWith(".NET 10", root.GetProperty("runtimeVersion").GetString(), StringComparison.Ordinal);
        Assert.False(root.GetProperty("interrupted").GetBoolean());
        var scenarios = root.GetProperty("scenarios").EnumerateArray().ToDictionary(s => s.GetProperty("variant").GetString()!);
        Assert.Equal(["delay", "sleep"], scenarios.Keys.Order());
        foreach (var (variant, s) in scenarios)
        {
            Assert.Equal("small", s.GetProperty("experiment").GetString());
            Assert.Equal(JsonValueKind.Null, s.GetProperty("minThreads").ValueKind);
            Assert.Equal("completed", s.GetProperty("status").GetString());
            var load = s.GetProperty("load");
            Assert.Equal(20, load.GetProperty("requests").GetInt64());
            Assert.Equal(20, load.GetProperty("succeeded").GetInt64());
            // .NET timers tick in milliseconds and may fire a little early: Task.Delay(1500) can end at 1499.x ms.
            Assert.True(load.GetProperty("latencyMs").GetProperty("min").GetDouble() >= 1495);
            var timeline = s.GetProperty("timeline");
            Assert.True(timeline.GetProperty("samples").GetInt32() > 0, variant);
            Assert.True(timeline.GetProperty("threadsPeak").GetInt32() >= timeline.GetProperty("threadsStart").GetInt32());
            Assert.Contains(s.GetProperty("verdict").GetString(), new[] { "healthy", "starving", "recovering" });
            Assert.True(File.Exists(Path.Combine(run, s.GetProperty("files").GetProperty("requests").GetString()!)));
            Assert.True(File.Exists(Path.Combine(run, s.GetProperty("files").GetProperty("timeline").GetString()!)));
            Assert.Equal(21, File.ReadAllLines(Path.Combine(run, s.GetProperty("files").GetProperty("requests").GetString()!)).Length);
        }
        // the lesson: 20 concurrent Thread.Sleep on a core-count minimum queue up; Task.Delay does not
        Assert.True(Mean(scenarios["sleep"]) > Mean(scenarios["delay"]) * 1.3, $"sleep {Mean(scenarios["sleep"])} vs delay {Mean(scenarios["delay"])}");
        Assert.Equal("healthy", scenarios["delay"].GetProperty("verdict").GetString());
        Assert.Empty(scenarios["delay"].GetProperty("culprits").EnumerateArray());
        Assert.Equal("the pool did not read starving (or short of cores) while the load ran", scenarios["delay"].GetProperty("noCulpritBecause").GetString());
        // the watch saw the pool starve: work queued and the runtime injected threads for starvation (the scenario's
        // verdict is the watch's last 2 s, after the 20 requests ended, so it may already read healthy); and diagnose,
        // run while it starved, named the blocking call and the handler
        var sleepTimeline = scenarios["sleep"].GetProperty("timeline");
        Assert.True(sleepTimeline.GetProperty("injectionsByReason").GetProperty("Starvation").GetInt32() >= 1);
        Assert.True(sleepTimeline.GetProperty("queuePeak").GetDouble() > 0, sleepTimeline.ToString());
        var culprits = scenarios["sleep"].GetProperty("culprits").EnumerateArray().ToList();
        Assert.True(culprits.Count > 0, $"no culprit named; the sleep scenario: {scenarios["sleep"]}\n{stdout}");
        var culprit = culprits[0];
        Assert.Contains("Thread.Sleep", culprit.GetProperty("blockingCall").GetString(), StringComparison.Ordinal);
        Assert.Contains("WaitController.Sleep", culprit.GetProperty("userFrame").GetString(), StringComparison.Ordinal);
        // a plan has no seed: no seed figures, no background notes, no lessons against a seed
        var experiment = Assert.Single(root.GetProperty("experiments").EnumerateArray());
        Assert.Empty(experiment.GetProperty("runtimeNotes").EnumerateArray());
        Assert.Empty(experiment.GetProperty("lessons").EnumerateArray());
        Assert.All(scenarios.Values, s => Assert.Equal(JsonValueKind.Null, s.GetProperty("seed").ValueKind));

        var view = await Browser.OpenAsync(Path.Combine(run, "report.html"), Path.Combine(RepoPaths.Artifacts("screenshots"), "report-lab-e2e.png"));
        Reports.HtmlReportTests.AssertReadable(view);
        // latency by completion, percentiles, and per scenario each request's timeline, the pool and the scheduling delay
        Assert.Equal(8, view.Charts.Count);
        Assert.Contains(view.Charts, c => c.Id.StartsWith("delay-", StringComparison.Ordinal));
    }

    private static double Mean(JsonElement scenario) => scenario.GetProperty("load").GetProperty("latencyMs").GetProperty("mean").GetDouble();

    private const string LongPlan = """
        scenarios:
          - { id: long-db, variant: db-sync, waitMs: 1000, load: { concurrency: 10, duration: 60s } }
          - { id: never, variant: delay, load: { concurrency: 1, requests: 1 } }
        """;

    /// <summary>
    /// tplab's pid alone signalled mid-scenario: its children run in sessions of their own, so this is the path of
    /// <c>GroupSignalTests.Run_PrivatePostgres_GroupSignalled_ItStopsWithTplabAndTheRunIsInterrupted</c> (TERM, KILL: the
    /// same run, target, downstream and PostgreSQL, every process of the run checked, the summary's interrupted scenario
    /// with what it measured): run by bench/suite-rows.sh.
    /// </summary>
    [BenchRow(Postgres = true)]
    [Trait("Category", Bench.RowCategory)]
    [InlineData("INT")]
    [InlineData("KILL")]
    public async Task Run_StoppedMidScenario_LeavesNoProcessBehind(string signal)
    {
        var results = Path.Combine(_folder, "results");
        await using var run = TplabCli.Start("run", "--plan", Plan(LongPlan), "--results", results, "--no-diagnose");
        // The first progress line of the scenario: target, downstream and PostgreSQL are up and the load is running.
        await run.WaitForLineAsync(l => l.Contains("▸ long-db:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), TimeSpan.FromSeconds(90));
        Assert.True(await ProcessTable.EventuallyAsync(() => ProcessTree.Descendants(run.Id).Count >= 3, TimeSpan.FromSeconds(30)));
        var children = ProcessTree.Descendants(run.Id);
        // This run's PostgreSQL folders only: other tplab runs on the machine may have their own.
        var pgFolders = Directory.EnumerateDirectories(Path.GetTempPath(), "tplab-pg-*")
            .Where(d => ProcessTable.WithCommandLine(d).Any(children.Contains)).ToList();

        ProcessTree.Signal(run.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        Assert.True(await ProcessTable.EventuallyAsync(() => run.HasExited, TimeSpan.FromSeconds(40)), "tplab did not end");
        Assert.True(await ProcessTable.EventuallyAsync(() => children.All(p => !ProcessTable.IsAlive(p)), TimeSpan.FromSeconds(30)),
            $"left behind: {string.Join(", ", children.Where(ProcessTable.IsAlive))}");
        Assert.NotEmpty(pgFolders);
        Assert.True(await ProcessTable.EventuallyAsync(() => pgFolders.All(d => ProcessTable.WithCommandLine(d).Count == 0), TimeSpan.FromSeconds(30)),
            $"PostgreSQL still runs in {string.Join(", ", pgFolders)}");
        if (signal == "INT")
        {
            var folder = Assert.Single(Directory.GetDirectories(results));
            using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "summary.json")));
            Assert.True(summary.RootElement.GetProperty("interrupted").GetBoolean());
            var scenario = Assert.Single(summary.RootElement.GetProperty("scenarios").EnumerateArray());
            Assert.Equal("interrupted", scenario.GetProperty("status").GetString());
            Assert.True(scenario.GetProperty("load").GetProperty("requests").GetInt64() > 0);
        }
    }

    [Theory]
    [InlineData("--experiment", "nope", "unknown experiment 'nope'")]
    [InlineData("--variant", "nap", "unknown variant 'nap'")]
    [InlineData("--interval", "10ms", "--interval must be between 250ms and 1h, got 10ms")]
    [InlineData("--plan", "/no/such/plan.yaml", "--plan /no/such/plan.yaml")]
    [InlineData("--plan", "/tmp", "is a folder")]
    public async Task Run_BadInput_OneLineAndUsageExitCode(string option, string value, string expected)
    {
        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(60), "run", option, value, "--results", Path.Combine(_folder, "r"));
        Assert.Equal(ExitCodes.Usage, code);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(expected, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_WithoutPostgresBinaries_SkipsTheDbExperimentSayingHowToEnableIt_AndANothingRunFails()
    {
        var results = Path.Combine(_folder, "results");
        var (code, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(60),
            new Dictionary<string, string> { ["TPLAB_PG_BIN"] = "/no/such/postgresql/bin", ["TPLAB_PG"] = "" },
            "run", "--experiment", "siege-db", "--results", results);
        // Its only experiment skipped, the run did nothing: that is not success (issue 21).
        Assert.True(code == ExitCodes.Environment, $"exit {code}: {stderr}");
        Assert.StartsWith("tplab: nothing ran: every experiment was skipped (siege-db: ", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        var line = Assert.Single(stdout.Split('\n'), l => l.StartsWith("siege-db skipped:", StringComparison.Ordinal));
        Assert.Contains("apt-get install postgresql", line, StringComparison.Ordinal);
        Assert.Contains("--pg", line, StringComparison.Ordinal);
        using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(Assert.Single(Directory.GetDirectories(results)), "summary.json")));
        Assert.Equal("siege-db", Assert.Single(summary.RootElement.GetProperty("skipped").EnumerateArray()).GetProperty("experiment").GetString());
    }

    [Fact]
    public async Task Run_BadPlanFile_NamesTheField()
    {
        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(60), "run", "--plan",
            Plan("scenarios:\n  - variant: sleep\n    load: { concurrency: -4, requests: 1 }"), "--results", Path.Combine(_folder, "r"));
        Assert.Equal(ExitCodes.Usage, code);
        Assert.Contains("scenarios[0].load.concurrency", stderr, StringComparison.Ordinal);
    }
}
