using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Processes;

/// <summary>
/// Issue 28: TERM, INT or KILL sent to tplab's whole process group — what timeout, a CI runner's cancel or
/// <c>kill -- -PGID</c> send — at the stage where tplab has started its processes: the user's service under
/// <c>dotnet run</c> (sh → dotnet run → app), the private PostgreSQL, <c>watch -- COMMAND</c>, scan's MSBuild build host.
/// None is left, and TERM or INT stops the command as interrupted, never as a failure of its parts. (The built-in
/// target's run and tune are signalled the same way in LabFaultTests and TuneFaultTests.)
/// </summary>
[Collection(TestCollections.Orders)]
public sealed class GroupSignalTests : IDisposable
{
    private static readonly TimeSpan Minute = TimeSpan.FromMinutes(1);
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-group-signal-").FullName;
    private readonly Orphans _orphans = new();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    public static TheoryData<string> Signals => new() { "TERM", "INT", "KILL" };

    /// <summary>
    /// Where tplab alone receives the group's signal: every process it starts runs in a session of its own
    /// (<c>OwnSession</c>, setsid), so INT and TERM reach only tplab, through one handler (<c>SignalReceived</c>,
    /// System.CommandLine's cancellation), and tplab then stops its children the same way. The INT row of such a case
    /// takes TERM's path: it runs in bench/suite-rows.sh (<see cref="BenchRowAttribute"/>). Scan's MSBuild build host
    /// shares tplab's group, so its rows keep every signal.
    /// </summary>
    public static TheoryData<string> TermAndKill => new() { "TERM", "KILL" };

    [Theory]
    [MemberData(nameof(TermAndKill))]
    public Task RunPlan_ServiceUnderDotnetRun_GroupSignalled_NothingLeft(string signal) => RunPlanUnderDotnetRunAsync(signal);

    /// <summary>INT: TERM's path (<see cref="TermAndKill"/>).</summary>
    [BenchRow]
    [Trait("Category", Bench.RowCategory)]
    [InlineData("INT")]
    public Task RunPlan_ServiceUnderDotnetRun_GroupInterrupted_NothingLeft(string signal) => RunPlanUnderDotnetRunAsync(signal);

    private async Task RunPlanUnderDotnetRunAsync(string signal)
    {
        // `dotnet run` as a user writes it (no build: the tests built the project), the app its child.
        var project = Path.Combine(RepoPaths.Root, "tests", "Tplab.OrdersService", "Tplab.OrdersService.csproj");
        var plan = Path.Combine(_folder, "dotnet-run.yaml");
        File.WriteAllText(plan, OrdersService.Plan("orders", users: 2, latencyMs: 20)
            .Replace($"command: {OrdersService.Command}", $"command: {DotnetHost.Path} run --no-build -c Release --no-launch-profile --project {project}", StringComparison.Ordinal)
            .Replace("requests: 4 }", "duration: 60s }", StringComparison.Ordinal));
        await using var run = _orphans.Start("run", "--plan", plan, "--results", Path.Combine(_folder, "results"), "--no-diagnose");
        await run.WaitForLineAsync(l => l.Contains("▸ orders:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), TimeSpan.FromMinutes(2));
        Assert.Contains(_orphans.Marked(), p => Tplab.Processes.ProcessFiles.CommandLine(p).Contains("run"));

        Orphans.SignalGroup(run.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await _orphans.EndedWithNoneLeftAsync(run);
        AssertInterrupted(signal, code, run);
    }

    [PostgresTheory]
    [MemberData(nameof(TermAndKill))]
    public Task Run_PrivatePostgres_GroupSignalled_ItStopsWithTplabAndTheRunIsInterrupted(string signal) => RunPrivatePostgresAsync(signal);

    /// <summary>INT: TERM's path (<see cref="TermAndKill"/>); signalled to tplab's pid alone, the same.</summary>
    [BenchRow(Postgres = true)]
    [Trait("Category", Bench.RowCategory)]
    [InlineData("INT")]
    public Task Run_PrivatePostgres_GroupInterrupted_ItStopsWithTplabAndTheRunIsInterrupted(string signal) => RunPrivatePostgresAsync(signal);

    private async Task RunPrivatePostgresAsync(string signal)
    {
        var plan = Path.Combine(_folder, "db.yaml");
        File.WriteAllText(plan, """
            name: db
            scenarios:
              - { id: first, variant: db-async, waitMs: 50, load: { concurrency: 2, duration: 2s } }
              - { id: second, variant: db-async, waitMs: 50, load: { concurrency: 2, duration: 30s } }
            """);
        var results = Path.Combine(_folder, "results");
        await using var run = _orphans.Start("run", "--plan", plan, "--results", results, "--no-diagnose");
        await run.WaitForLineAsync(l => l.Contains("▸ second:", StringComparison.Ordinal) && l.Contains(" done", StringComparison.Ordinal), TimeSpan.FromMinutes(2));
        var pgFolders = Directory.GetDirectories(Path.GetTempPath(), "tplab-pg-*").Where(d => _orphans.Marked().Any(p => Tplab.Processes.ProcessFiles.CommandLine(p).Contains(d))).ToList();
        Assert.NotEmpty(pgFolders);

        Orphans.SignalGroup(run.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await _orphans.EndedWithNoneLeftAsync(run);
        Assert.True(await ProcessTable.EventuallyAsync(() => !pgFolders.Any(Directory.Exists), TimeSpan.FromSeconds(20)), "the private PostgreSQL's folder was left");
        AssertInterrupted(signal, code, run);
        if (signal != "KILL")
        {
            // PostgreSQL did not stop first: the scenario under way is interrupted, not failed for want of its database.
            using var summary = JsonDocument.Parse(File.ReadAllText(Path.Combine(FaultRun.OnlyFolder(results), "summary.json")));
            Assert.True(summary.RootElement.GetProperty("interrupted").GetBoolean());
            var scenarios = summary.RootElement.GetProperty("scenarios").EnumerateArray().ToList();
            Assert.Equal(["completed", "interrupted"], scenarios.Select(s => s.GetProperty("status").GetString()));
            // The interrupted scenario keeps what it measured before the signal.
            Assert.True(scenarios[1].GetProperty("load").GetProperty("requests").GetInt64() > 0);
        }
    }

    [Theory]
    [MemberData(nameof(Signals))]
    public async Task WatchCommand_GroupSignalled_TheCommandEnds(string signal)
    {
        var output = Path.Combine(_folder, "watch.jsonl");
        await using var watch = _orphans.Start("watch", "--format", "jsonl", "--output", output, "--",
            DotnetHost.Path, Path.Combine(AppContext.BaseDirectory, "Tplab.Target.dll"), "serve", "--port", "0");
        var line = await watch.WaitForLineAsync(l => l.StartsWith("tplab watch: watching pid ", StringComparison.Ordinal), Minute);
        var command = int.Parse(line.Split(' ')[4], CultureInfo.InvariantCulture);
        Assert.Contains(command, _orphans.Marked());

        Orphans.SignalGroup(watch.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await _orphans.EndedWithNoneLeftAsync(watch);
        // watch stopped by a signal ends as it does at the end of --duration: its output whole, its command stopped.
        Assert.True(signal == "KILL" || code is ExitCodes.Ok or ExitCodes.Interrupted, $"exit {code}: {watch.LastLines(5)}");
    }

    [Theory]
    [MemberData(nameof(Signals))]
    public async Task Scan_GroupSignalledWhileTheBuildHostLoads_NothingLeft(string signal)
    {
        await using var scan = _orphans.Start("scan", Path.Combine(RepoPaths.Root, "tests", "scan-fixtures", "Shop"), "--no-restore");
        Assert.True(await ProcessTable.EventuallyAsync(
            () => _orphans.Marked().Any(p => Tplab.Processes.ProcessFiles.CommandLine(p).Any(a => a.Contains("BuildHost", StringComparison.Ordinal))) || scan.HasExited,
            Minute), "no build host started");
        Assert.False(scan.HasExited, $"scan ended before it could be signalled: {scan.LastLines(5)}");

        Orphans.SignalGroup(scan.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await _orphans.EndedWithNoneLeftAsync(scan);
        AssertInterrupted(signal, code, scan);
    }

    [Theory]
    [MemberData(nameof(Signals))]
    public async Task Serve_GroupSignalled_TargetDownstreamAndPostgresEnd(string signal)
    {
        await using var serve = _orphans.Start("serve", "--port", "0");
        var ready = await serve.WaitForLineAsync(l => l.StartsWith("tplab serve: listening", StringComparison.Ordinal), TimeSpan.FromMinutes(2));
        var pgFolder = System.Text.RegularExpressions.Regex.Match(ready, @"\S*tplab-pg-[0-9a-f]+").Value;
        Assert.True(_orphans.Marked().Count >= 3, "serve, its target and its downstream");

        Orphans.SignalGroup(serve.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

        var code = await _orphans.EndedWithNoneLeftAsync(serve);
        Assert.True(pgFolder.Length == 0 || await ProcessTable.EventuallyAsync(() => !Directory.Exists(pgFolder), TimeSpan.FromSeconds(20)), "the private PostgreSQL's folder was left");
        // Stopping is serve's ordinary end.
        Assert.True(signal == "KILL" || code is ExitCodes.Ok or ExitCodes.Interrupted, $"exit {code}: {serve.LastLines(5)}");
    }

    /// <summary>
    /// Scan under TERM and KILL, against a copy without restore output (so it restores it first); fix under INT. Both
    /// restore through the same guarded <c>dotnet restore</c> (<c>WorkspaceLoader</c>), TERM and INT reach both through
    /// the same handler, and KILL leaves the guardian alone to act whatever the command: fix's other two signals
    /// repeated scan's rows, and scan's INT row takes TERM's path (in bench/suite-rows.sh).
    /// </summary>
    public static TheoryData<string, string> RestoringCommands => new()
    {
        { "scan", "TERM" },
        { "scan", "KILL" },
        { "fix", "INT" },
    };

    [Theory]
    [MemberData(nameof(RestoringCommands))]
    public Task ScanAndFix_GroupSignalledWhileDotnetRestoreRuns_NothingLeft(string command, string signal) => RestoringAsync(command, signal);

    /// <summary>
    /// Scan under INT while it restores: TERM's path (the restore is guarded, in a session of its own, and runs before
    /// the build host that shares tplab's group starts); fix's INT row is in the suite.
    /// </summary>
    [BenchRow]
    [Trait("Category", Bench.RowCategory)]
    [InlineData("scan", "INT")]
    public Task ScanAndFix_GroupInterruptedWhileDotnetRestoreRuns_NothingLeft(string command, string signal) => RestoringAsync(command, signal);

    private async Task RestoringAsync(string command, string signal)
    {
        // A copy without restore output that needs a package from a feed that never answers: scan and fix restore it
        // first (a guarded `dotnet restore`), and the restore waits on the feed until the signal, however warm the
        // machine's NuGet cache (the restore is given empty folders of the feed's). The feed's first request says so.
        using var feed = new HeldPackageFeed();
        var copy = Tplab.Tests.Scan.Fix.FixProofTests.Copy();
        try
        {
            var project = Path.Combine(copy, "Tplab.OrdersService");
            feed.Serve(copy, Path.Combine(project, "Tplab.OrdersService.csproj"));
            string[] args = command == "fix" ? ["fix", project, "-o", Path.Combine(copy, "fix.patch")] : ["scan", project];
            await using var tplab = _orphans.Start(feed.Environment, args);
            var first = await Task.WhenAny(feed.Requested, tplab.Exited, Task.Delay(TimeSpan.FromMinutes(2)));
            Assert.True(first == feed.Requested, tplab.HasExited ? $"{command} ended before its restore asked the feed: {tplab.LastLines(5)}" : "no restore asked the feed");
            Assert.True(MarkedWithArgument("restore"), $"the feed got {await feed.Requested} but no dotnet restore of tplab's runs");

            Orphans.SignalGroup(tplab.Id, signal == "INT" ? ProcessTree.Interrupt : signal);

            var code = await _orphans.EndedWithNoneLeftAsync(tplab);
            AssertInterrupted(signal, code, tplab);
        }
        finally
        {
            Directory.Delete(copy, recursive: true);
        }
    }

    /// <remarks>
    /// TERM alone, end to end (a copy loaded, fixed and compiled before the command starts): INT reaches fix through the
    /// same handler (<c>SignalReceived</c>, System.CommandLine's cancellation; fix under INT in
    /// <see cref="ScanAndFix_GroupSignalledWhileDotnetRestoreRuns_NothingLeft"/>), and KILL leaves only the guardian
    /// to act, as it does for a plan's service (<see cref="RunPlan_ServiceUnderDotnetRun_GroupSignalled_NothingLeft"/>,
    /// <see cref="GuardedCommandKillTests"/>). What an interrupted verify does to the files and to the command's group
    /// (its background child included) is <c>FixFilesTests.ApplyAsync_InterruptedWhileVerifyRuns_EveryChangeReverted_Exit130</c>'s,
    /// and fix's signal becoming that cancellation is <see cref="ScanAndFix_GroupSignalledWhileDotnetRestoreRuns_NothingLeft"/>'s:
    /// the whole, end to end, runs in bench/suite-rows.sh.
    /// </remarks>
    [BenchFact]
    [Trait("Category", Bench.RowCategory)]
    public async Task FixVerify_GroupTerminatedWhileTheCommandRuns_ItsGroupEndsAndFixIsInterrupted()
    {
        var copy = Tplab.Tests.Scan.Fix.FixProofTests.Copy();
        try
        {
            // The user's check, with a child of its own in the background (as `dotnet test` has its test hosts).
            await using var fix = _orphans.Start("fix", Path.Combine(copy, "Tplab.OrdersService"), "--apply", "--force", "--verify", "sleep 600 & sleep 601; wait");
            Assert.True(await ProcessTable.EventuallyAsync(() => MarkedWithArgument("601") || fix.HasExited, TimeSpan.FromMinutes(3)), "--verify's command did not start");
            Assert.False(fix.HasExited, $"fix ended before it could be signalled: {fix.LastLines(5)}");
            Assert.True(MarkedWithArgument("600"), "the command's background child");

            Orphans.SignalGroup(fix.Id, "TERM");

            var code = await _orphans.EndedWithNoneLeftAsync(fix);
            AssertInterrupted("TERM", code, fix);
        }
        finally
        {
            Directory.Delete(copy, recursive: true);
        }
    }

    private bool MarkedWithArgument(string argument) => _orphans.Marked().Any(p => Tplab.Processes.ProcessFiles.CommandLine(p).Skip(1).Contains(argument));

    private static void AssertInterrupted(string signal, int code, Tplab.Processes.ChildProcess tplab)
    {
        if (signal == "KILL")
        {
            return;
        }
        Assert.True(code == ExitCodes.Interrupted, $"exit {code}: {tplab.LastLines(5)}");
        Assert.Contains(tplab.RecentOutput, l => l.StartsWith("tplab: interrupted", StringComparison.Ordinal));
    }
}
