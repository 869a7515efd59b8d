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
/// </summary>
[Collection(OrdersService.Collection)]
public sealed class GuardedCommandKillTests
{
    private readonly Orphans _orphans = new();

    [Theory]
    [InlineData("guardian")]
    [InlineData("tplab")]
    public async Task TplabAndGuardianKilledOneByOne_TheCommandsGroupEnds(string first)
    {
        var copy = Tplab.Tests.Scan.Fix.FixProofTests.Copy();
        try
        {
            await using var fix = _orphans.Start("fix", Path.Combine(copy, "Tplab.OrdersService"), "--apply", "--force", "--verify", "sleep 600 & sleep 601; wait");
            Assert.True(await ProcessTable.EventuallyAsync(() => MarkedWithArgument("601") || fix.HasExited, TimeSpan.FromMinutes(3)), "--verify's command did not start");
            Assert.False(fix.HasExited, $"fix ended before it could be killed: {fix.LastLines(5)}");
            // The guardian is tplab's child; its watcher, a subshell of it, has the same command line.
            var guardian = ProcessFiles.Children(fix.Id).Single(p => ProcessFiles.CommandLine(p).Contains("tplab-guardian"));

            var order = first == "guardian" ? new[] { guardian, fix.Id } : [fix.Id, guardian];
            ProcessTree.Signal(order[0], "KILL");
            ProcessTree.Signal(order[1], "KILL");

            await _orphans.EndedWithNoneLeftAsync(fix);
        }
        finally
        {
            Directory.Delete(copy, recursive: true);
        }
    }

    [Fact]
    public async Task EveryProcessNamedTplabKilled_TheCommandsGroupEnds()
    {
        // What `pkill -9 -f tplab` does: tplab, the guardian and its watcher die at once; no watcher is left. The
        // command's leader gets its parent-death signal and ends the group itself.
        var copy = Tplab.Tests.Scan.Fix.FixProofTests.Copy();
        try
        {
            await using var fix = _orphans.Start("fix", Path.Combine(copy, "Tplab.OrdersService"), "--apply", "--force", "--verify", "sleep 600 & sleep 601; wait");
            Assert.True(await ProcessTable.EventuallyAsync(() => MarkedWithArgument("601") || fix.HasExited, TimeSpan.FromMinutes(3)), "--verify's command did not start");
            Assert.False(fix.HasExited, $"fix ended before it could be killed: {fix.LastLines(5)}");
            var named = _orphans.Marked().Where(p => ProcessFiles.CommandLine(p).Any(a => a.Contains("tplab", StringComparison.Ordinal))).ToList();
            // tplab, the guardian and its watcher; at times one more for a moment: a shell's fork for a command
            // substitution carries its parent's command line (seen on a loaded machine: 4).
            var guarded = named.Count(p => p == fix.Id || ProcessFiles.CommandLine(p).Contains("tplab-guardian"));
            Assert.True(guarded >= 3, $"tplab, the guardian and its watcher: {guarded} found");

            foreach (var pid in named)
            {
                ProcessTree.Signal(pid, "KILL");
            }

            await _orphans.EndedWithNoneLeftAsync(fix);
        }
        finally
        {
            Directory.Delete(copy, recursive: true);
        }
    }

    private bool MarkedWithArgument(string argument) => _orphans.Marked().Any(p => ProcessFiles.CommandLine(p).Skip(1).Contains(argument));
}
