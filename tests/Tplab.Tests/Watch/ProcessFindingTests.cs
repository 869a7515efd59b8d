using System.Globalization;
using Tplab.Common;
using Tplab.Processes;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary><c>tplab ps</c> and <c>-n NAME</c> on real targets: listed with name, runtime and verdict; none or several named is one line, exit 5.</summary>
[Collection(TestCollections.Watch)]
public sealed class ProcessFindingTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Ps_ListsTheTarget_WithNameRuntimeThreadsAndVerdict()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        var pid = target.ProcessId.ToString(CultureInfo.InvariantCulture);

        // A sample long enough for the runtime's first counters on a loaded machine (1.9 s seen): a row of '-' is a
        // process ps could not read in time, which is not what this test is about.
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "ps", "--sample", "3s");

        Assert.True(code == 0, stderr);
        Assert.StartsWith("PID", stdout.TrimStart(), StringComparison.Ordinal);
        var line = Assert.Single(stdout.Split('\n'), l => l.TrimStart().StartsWith(pid + " ", StringComparison.Ordinal));
        var cells = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("Tplab.Target", cells[1]);
        Assert.StartsWith("10.", cells[2], StringComparison.Ordinal);
        Assert.True(int.Parse(cells[3], CultureInfo.InvariantCulture) > 0, line);
        Assert.Contains(cells[5], new[] { "healthy", "starving", "recovering" });
        Assert.DoesNotContain(stdout.Split('\n'), l => l.TrimStart().StartsWith(Environment.ProcessId.ToString(CultureInfo.InvariantCulture) + " ", StringComparison.Ordinal) && l.Contains("tplab", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Name_NoneOrSeveralMatching_OneLineExit5()
    {
        await using var first = await TargetProcess.StartTargetAsync(new TargetOptions());
        await using var second = await TargetProcess.StartTargetAsync(new TargetOptions());
        Assert.Equal("Tplab.Target", ProcessFinder.AppName(first.ProcessId));

        var (none, _, noneErr) = await TplabCli.RunAsync(Limit, "watch", "-n", "no-such-app-" + Guid.NewGuid().ToString("N")[..6], "--duration", "1s");
        var (several, _, severalErr) = await TplabCli.RunAsync(Limit, "diagnose", "-n", "Tplab.Target");

        Assert.Equal(ExitCodes.NoProcess, none);
        Assert.Contains("no .NET process named", noneErr, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.NoProcess, several);
        Assert.Single(severalErr.TrimEnd('\n').Split('\n'));
        Assert.Contains(first.ProcessId.ToString(CultureInfo.InvariantCulture), severalErr, StringComparison.Ordinal);
        Assert.Contains(second.ProcessId.ToString(CultureInfo.InvariantCulture), severalErr, StringComparison.Ordinal);
    }
}
