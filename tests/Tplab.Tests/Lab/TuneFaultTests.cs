using System.Text.Json;
using Tplab.Common;
using Tplab.Lab.Running;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>
/// `tplab tune` meeting faults (issue 21): the trial's service killed under the load stops the search (exit 7) rather
/// than judging that minimum; tplab stopped by SIGTERM, SIGINT or SIGKILL while it starts and mid-trial leaves no
/// process, and its folder says how it ended.
/// </summary>
public sealed class TuneFaultTests : IDisposable
{
    private static readonly TimeSpan Minute = TimeSpan.FromMinutes(1);
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-tune-faults-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    // An async variant the default pool serves: one trial, unless something stops it.
    private static string[] Tune(string results) =>
        ["tune", "--variant", "delay", "--wait-ms", "50", "-c", "2", "--duration", "20s", "--slo", "p99<10s", "--try-knob", "none", "--results", results];

    [Fact]
    public async Task Tune_ServiceKilledMidTrial_StopsTheSearchThereExit7TrialKept()
    {
        var results = Path.Combine(_folder, "results");
        await using var run = TplabCli.Start(Tune(results));
        await run.WaitForLineAsync(l => l.Contains(" done · ", StringComparison.Ordinal), Minute);
        var target = Assert.Single(FaultRun.Children(run, "Tplab.Target.dll serve"));
        var children = ProcessTree.Descendants(run.Id);

        ProcessTree.Signal(target, "KILL");

        var code = await FaultRun.EndedWithoutOrphansAsync(run, children);
        Assert.True(code == ExitCodes.ProcessExited, $"exit {code}: {run.LastLines(5)}");
        var line = Assert.Single(run.RecentOutput, l => l.StartsWith("tplab: ", StringComparison.Ordinal));
        Assert.Contains("tune stopped at trial 1 (default): the service", line, StringComparison.Ordinal);
        Assert.Contains("killed by signal 9", line, StringComparison.Ordinal);
        var folder = FaultRun.OnlyFolder(results);
        FaultRun.AssertWhole(folder);
        using var tune = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "tune.json")));
        Assert.Single(tune.RootElement.GetProperty("trials").EnumerateArray());
        Assert.Null(tune.RootElement.GetProperty("recommendedMinThreads").GetString());
    }

    public static TheoryData<string, string> Signals => new()
    {
        { "TERM", "starting" }, { "INT", "starting" }, { "KILL", "starting" },
        // INT during a trial takes TERM's path: a bench row
        { "TERM", "trial" }, { "KILL", "trial" },
    };

    [Theory]
    [MemberData(nameof(Signals))]
    public Task Tune_Signalled_NoOrphanFilesWholeAndTheFolderSaysHowItEnded(string signal, string stage) => SignalledAsync(signal, stage);

    /// <summary>
    /// INT to the group under load: tplab alone receives it (its children run in sessions of their own) and handles it
    /// as TERM (one handler), so this is the TERM row's path, as the INT row while starting shows: bench/suite-rows.sh.
    /// </summary>
    [BenchRow]
    [Trait("Category", Bench.RowCategory)]
    [InlineData("INT", "trial")]
    public Task Tune_Interrupted_NoOrphanFilesWholeAndTheFolderSaysHowItEnded(string signal, string stage) => SignalledAsync(signal, stage);

    private async Task SignalledAsync(string signal, string stage)
    {
        var results = Path.Combine(_folder, "results");
        await using var run = TplabCli.Start(Tune(results));
        await run.WaitForLineAsync(stage == "starting"
            ? l => l.StartsWith("trial 1 ", StringComparison.Ordinal)
            : l => l.Contains(" done · ", StringComparison.Ordinal), Minute);
        var children = ProcessTree.Descendants(run.Id);

        // To the whole group, as timeout, a CI cancel or kill -- -PGID send it (issue 28).
        Orphans.SignalGroup(run.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await FaultRun.EndedWithoutOrphansAsync(run, children);
        var folder = FaultRun.OnlyFolder(results);
        FaultRun.AssertWhole(folder);
        if (signal != "KILL")
        {
            Assert.True(code == ExitCodes.Interrupted, $"exit {code}: {run.LastLines(5)}");
            Assert.Contains(run.RecentOutput, l => l.StartsWith("tplab: interrupted", StringComparison.Ordinal));
            Assert.False(FaultRun.MarkedRunning(folder));
            using var tune = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "tune.json")));
            Assert.True(tune.RootElement.GetProperty("interrupted").GetBoolean());
            return;
        }
        Assert.True(FaultRun.MarkedRunning(folder));
        var next = await TplabCli.RunAsync(Minute, "tune", "--plan", FaultRun.FailingPlan(_folder), "--scenario", "a", "--slo", "p99<1s", "--results", results);
        Assert.True(next.ExitCode == ExitCodes.Environment, $"exit {next.ExitCode}: {next.Stderr}");
        Assert.Contains(next.Stdout.Split('\n'), l => l.Contains(folder, StringComparison.Ordinal) && l.Contains("is unfinished", StringComparison.Ordinal));
        Assert.True(File.Exists(Path.Combine(folder, ResultsFolder.UnfinishedMarker)));
    }
}
