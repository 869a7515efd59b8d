using System.Text.Json;
using Tplab.Common;
using Tplab.Lab.Running;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>
/// `tplab run` meeting the faults users meet (issue 21): its target killed under the load, its PostgreSQL killed, tplab
/// itself stopped by SIGTERM, SIGINT or SIGKILL while it starts and while it loads. Each ends in one clear line and a
/// documented exit code, with no process left and every file whole; a killed run's folder is recognised afterwards.
/// </summary>
[Collection(TestCollections.Lab)]
public sealed class LabFaultTests : IDisposable
{
    private static readonly TimeSpan Minute = TimeSpan.FromMinutes(1);
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-faults-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private string Write(string name, string text)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, text);
        return path;
    }

    // Two short async scenarios: enough to stop tplab before anything is written, or after the first is written.
    private const string TwoScenarios = """
        name: faults
        scenarios:
          - { id: first, variant: delay, waitMs: 50, load: { concurrency: 2, duration: 2s } }
          - { id: second, variant: delay, waitMs: 50, load: { concurrency: 2, duration: 20s } }
        """;

    [Fact]
    public async Task Run_TargetKilledMidScenario_ThatScenarioFailsWithItsFiguresTheNextRunsExitPartial()
    {
        var plan = Write("kill.yaml", """
            name: faults
            scenarios:
              - { id: first, variant: delay, waitMs: 50, load: { concurrency: 2, duration: 20s } }
              - { id: second, variant: delay, waitMs: 50, load: { concurrency: 2, duration: 2s } }
            """);
        var results = Path.Combine(_folder, "results");
        await using var run = TplabCli.Start("run", "--plan", plan, "--results", results, "--no-diagnose");
        await run.WaitForLineAsync(l => l.Contains("▸ first:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), Minute);
        var target = Assert.Single(FaultRun.Children(run, "Tplab.Target.dll serve"));
        var children = ProcessTree.Descendants(run.Id);

        ProcessTree.Signal(target, "KILL");

        var code = await FaultRun.EndedWithoutOrphansAsync(run, children);
        Assert.True(code == ExitCodes.Partial, $"exit {code}: {run.LastLines(5)}");
        var line = Assert.Single(run.RecentOutput, l => l.StartsWith("tplab: ", StringComparison.Ordinal));
        Assert.Contains("1 of 2 scenarios failed: faults/first", line, StringComparison.Ordinal);
        Assert.Contains("killed by signal 9", line, StringComparison.Ordinal);
        var folder = FaultRun.OnlyFolder(results);
        FaultRun.AssertWhole(folder);
        Assert.False(FaultRun.MarkedRunning(folder));
        using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "summary.json")));
        var scenarios = summary.RootElement.GetProperty("scenarios").EnumerateArray().ToList();
        Assert.Equal(["failed", "completed"], scenarios.Select(s => s.GetProperty("status").GetString()));
        Assert.True(scenarios[0].GetProperty("load").GetProperty("requests").GetInt64() > 0, "the killed scenario's figures were not kept");
    }

    [PostgresFact]
    public async Task Run_PostgresKilledMidScenario_ScenarioFailsAndTheNextDbScenarioIsNotRun()
    {
        var plan = Write("db.yaml", """
            name: db
            scenarios:
              - { id: first, variant: db-async, waitMs: 50, load: { concurrency: 2, duration: 20s } }
              - { id: second, variant: db-async, waitMs: 50, load: { concurrency: 2, duration: 2s } }
            """);
        var results = Path.Combine(_folder, "results");
        await using var run = TplabCli.Start("run", "--plan", plan, "--results", results, "--no-diagnose");
        await run.WaitForLineAsync(l => l.Contains("▸ first:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), TimeSpan.FromMinutes(2));
        var children = ProcessTree.Descendants(run.Id);
        // The postmaster is the guardian's child, not tplab's: found through this run's guardian (`sh -c SCRIPT tplab-pg
        // FOLDER …`; the postmaster's own arguments name the folder too) and its folder.
        var guardian = Assert.Single(FaultRun.Children(run, "tplab-pg"), p => Tplab.Processes.ProcessFiles.CommandLine(p).Contains("tplab-pg"));
        var pgFolder = Tplab.Processes.ProcessFiles.CommandLine(guardian).First(a => a.Contains("tplab-pg-", StringComparison.Ordinal));
        var postmaster = int.Parse(File.ReadLines(Path.Combine(pgFolder, "data", "postmaster.pid")).First(), System.Globalization.CultureInfo.InvariantCulture);

        ProcessTree.Signal(postmaster, "KILL");

        var code = await FaultRun.EndedWithoutOrphansAsync(run, children);
        Assert.True(code == ExitCodes.ProcessExited, $"exit {code}: {run.LastLines(5)}");
        var line = Assert.Single(run.RecentOutput, l => l.StartsWith("tplab: ", StringComparison.Ordinal));
        Assert.Contains("PostgreSQL", line, StringComparison.Ordinal);
        var folder = FaultRun.OnlyFolder(results);
        FaultRun.AssertWhole(folder);
        using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "summary.json")));
        var scenarios = summary.RootElement.GetProperty("scenarios").EnumerateArray().ToList();
        Assert.All(scenarios, s => Assert.Equal("failed", s.GetProperty("status").GetString()));
        Assert.StartsWith("not run: ", scenarios[1].GetProperty("error").GetString(), StringComparison.Ordinal);
    }

    public static TheoryData<string, string> Signals => new()
    {
        // while the downstream and the first target start: nothing measured yet
        { "TERM", "starting" }, { "INT", "starting" }, { "KILL", "starting" },
        // under the second scenario's load: the first is written (INT takes TERM's path there: a bench row)
        { "TERM", "second" }, { "KILL", "second" },
    };

    [Theory]
    [MemberData(nameof(Signals))]
    public Task Run_Signalled_NoOrphanFilesWholeAndTheFolderSaysHowItEnded(string signal, string stage) => SignalledAsync(signal, stage);

    /// <summary>
    /// INT to the group under load: tplab alone receives it (its children run in sessions of their own) and handles it
    /// as TERM (one handler), so this is the TERM row's path, as the INT row while starting shows: bench/suite-rows.sh.
    /// </summary>
    [BenchRow]
    [Trait("Category", Bench.RowCategory)]
    [InlineData("INT", "second")]
    public Task Run_Interrupted_NoOrphanFilesWholeAndTheFolderSaysHowItEnded(string signal, string stage) => SignalledAsync(signal, stage);

    private async Task SignalledAsync(string signal, string stage)
    {
        var plan = Write("two.yaml", TwoScenarios);
        var results = Path.Combine(_folder, "results");
        await using var run = TplabCli.Start("run", "--plan", plan, "--results", results, "--no-diagnose");
        await run.WaitForLineAsync(stage == "starting"
            ? l => l.StartsWith("Results: ", StringComparison.Ordinal)
            : l => l.Contains("▸ second:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), Minute);
        var children = ProcessTree.Descendants(run.Id);

        // To the whole group, as timeout, a CI cancel or kill -- -PGID send it (issue 28).
        Orphans.SignalGroup(run.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await FaultRun.EndedWithoutOrphansAsync(run, children);
        var folders = Directory.Exists(results) ? Directory.GetDirectories(results) : [];
        foreach (var f in folders)
        {
            FaultRun.AssertWhole(f);
        }
        if (signal != "KILL")
        {
            Assert.True(code == ExitCodes.Interrupted, $"exit {code}: {run.LastLines(5)}");
            Assert.Contains(run.RecentOutput, l => l.StartsWith("tplab: interrupted", StringComparison.Ordinal));
            // Nothing measured yet leaves no folder; else the folder is finished and says interrupted.
            Assert.All(folders, f => Assert.False(FaultRun.MarkedRunning(f)));
            if (stage == "second")
            {
                using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(Assert.Single(folders), "summary.json")));
                Assert.True(summary.RootElement.GetProperty("interrupted").GetBoolean());
                Assert.Equal(["completed", "interrupted"], summary.RootElement.GetProperty("scenarios").EnumerateArray().Select(s => s.GetProperty("status").GetString()));
            }
            return;
        }
        // SIGKILL: the folder keeps its marker; compare and the next run say it is unfinished.
        var folder = Assert.Single(folders);
        Assert.True(FaultRun.MarkedRunning(folder));
        var compare = await TplabCli.RunAsync(Minute, "compare", folder, folder);
        if (stage == "second")
        {
            Assert.True(compare.ExitCode == 0, compare.Stderr);
            Assert.Contains($"A: {Path.Combine(folder, "summary.json")} (unfinished:", compare.Stdout, StringComparison.Ordinal);
        }
        else
        {
            Assert.Equal(ExitCodes.Usage, compare.ExitCode);
            Assert.Contains("is unfinished and holds no summary.json yet", compare.Stderr, StringComparison.Ordinal);
        }
        var next = await TplabCli.RunAsync(Minute, "run", "--plan", FaultRun.FailingPlan(_folder), "--results", results);
        Assert.Contains(next.Stdout.Split('\n'), l => l.Contains(folder, StringComparison.Ordinal) && l.Contains("is unfinished", StringComparison.Ordinal));
        Assert.False(FaultRun.MarkedRunning(folder));
        Assert.True(File.Exists(Path.Combine(folder, ResultsFolder.UnfinishedMarker)));
    }
}
