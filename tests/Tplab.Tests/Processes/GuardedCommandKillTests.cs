using Tplab.Processes;
using Tplab.Tests.Support;

namespace Tplab.Tests.Processes;

/// <summary>
/// A user's command under its guardian (<see cref="GuardedCommand"/>: the plan's service, <c>fix --verify</c>,
/// <c>dotnet restore</c>) when tplab and the guardian are each SIGKILLed by pid, in either order: the guardian's
/// watcher, a process of its own that holds tplab's pipe, ends the command's whole group once tplab is gone, and the
/// command's first process gets the kernel's parent-death signal from the guardian. The command here has a child of
/// its own, as <c>dotnet run</c> has the app. When the guardian and its watcher are killed too, the command's leader
/// shell, which gets the parent-death signal, ends the group.
/// The guardian is the one a plan's service runs under, waiting to be ready (it starts in a second); a bench row kills
/// the same guardian under <c>fix --apply --verify</c>, end to end (a copy of the orders service loaded, fixed and
/// compiled before its command starts).
/// </summary>
[Collection(TestCollections.Orders)]
public sealed class GuardedCommandKillTests : IDisposable
{
    // The user's command, with a child of its own in the background.
    private const string Command = "sleep 600 & sleep 601; wait";
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-guarded-kill-").FullName;
    private readonly Orphans _orphans = new();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Theory]
    [InlineData("guardian")]
    [InlineData("tplab")]
    public async Task TplabAndGuardianKilledOneByOne_TheCommandsGroupEnds(string first)
    {
        await using var run = await StartedAsync(ServiceWaitingToBeReady());
        // The guardian is tplab's child; its watcher, a subshell of it, has the same command line.
        var guardian = ProcessFiles.Children(run.Id).Single(p => ProcessFiles.CommandLine(p).Contains("tplab-guardian"));

        var order = first == "guardian" ? new[] { guardian, run.Id } : [run.Id, guardian];
        ProcessTree.Signal(order[0], "KILL");
        ProcessTree.Signal(order[1], "KILL");

        await _orphans.EndedWithNoneLeftAsync(run);
    }

    [Fact]
    public async Task EveryProcessNamedTplabKilled_TheCommandsGroupEnds()
    {
        await using var run = await StartedAsync(ServiceWaitingToBeReady());
        await KillEveryProcessNamedTplabAsync(run);
    }

    /// <summary>
    /// The same guardian from <c>fix --verify</c> (<c>FixApply</c> starts it through <see cref="GuardedCommand"/>, as a
    /// plan's service does): after every process named tplab is killed only the guardian's and the leader's scripts can
    /// act, so this is <see cref="EveryProcessNamedTplabKilled_TheCommandsGroupEnds"/>'s path after a copy is loaded,
    /// fixed and compiled: run by bench/suite-rows.sh.
    /// </summary>
    [BenchFact]
    [Trait("Category", Bench.RowCategory)]
    public async Task FixVerify_EveryProcessNamedTplabKilled_TheCommandsGroupEnds()
    {
        var copy = Tplab.Tests.Scan.Fix.FixProofTests.Copy();
        try
        {
            await using var fix = await StartedAsync(["fix", Path.Combine(copy, "Tplab.OrdersService"), "--apply", "--force", "--verify", Command]);
            await KillEveryProcessNamedTplabAsync(fix);
        }
        finally
        {
            Directory.Delete(copy, recursive: true);
        }
    }

    // What `pkill -9 -f tplab` does: tplab, the guardian and its watcher die at once; no watcher is left. The command's
    // leader gets its parent-death signal and ends the group itself.
    private async Task KillEveryProcessNamedTplabAsync(ChildProcess tplab)
    {
        var named = _orphans.Marked().Where(p => ProcessFiles.CommandLine(p).Any(a => a.Contains("tplab", StringComparison.Ordinal))).ToList();
        // tplab, the guardian and its watcher; at times one more for a moment: a shell's fork for a command
        // substitution carries its parent's command line (seen on a loaded machine: 4).
        var guarded = named.Count(p => p == tplab.Id || ProcessFiles.CommandLine(p).Contains("tplab-guardian"));
        Assert.True(guarded >= 3, $"tplab, the guardian and its watcher: {guarded} found");

        foreach (var pid in named)
        {
            ProcessTree.Signal(pid, "KILL");
        }

        await _orphans.EndedWithNoneLeftAsync(tplab);
    }

    // tplab started with the arguments, once the guarded command's child runs (its second sleep).
    private async Task<ChildProcess> StartedAsync(string[] args)
    {
        var tplab = _orphans.Start(args);
        try
        {
            Assert.True(await ProcessTable.EventuallyAsync(() => MarkedWithArgument("601") || tplab.HasExited, TimeSpan.FromMinutes(3)), $"tplab {args[0]}: the guarded command did not start");
            Assert.False(tplab.HasExited, $"tplab {args[0]} ended before it could be killed: {tplab.LastLines(5)}");
            return tplab;
        }
        catch
        {
            await tplab.DisposeAsync();
            throw;
        }
    }

    // `run --plan` of a service that never answers: tplab waits for it to be ready, its command under the guardian.
    private string[] ServiceWaitingToBeReady()
    {
        var plan = Path.Combine(_folder, "waiting.yaml");
        File.WriteAllText(plan, $$"""
            name: waiting
            service:
              command: "{{Command}}"
              ready: /health
              startTimeout: 600s
            scenarios:
              - id: never-ready
                requests: [ /health ]
                load: { concurrency: 1, requests: 1 }
            """);
        return ["run", "--plan", plan, "--results", Path.Combine(_folder, "results"), "--no-diagnose"];
    }

    private bool MarkedWithArgument(string argument) => _orphans.Marked().Any(p => ProcessFiles.CommandLine(p).Skip(1).Contains(argument));
}
