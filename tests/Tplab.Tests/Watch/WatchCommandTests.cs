using System.Globalization;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary><c>tplab watch -- COMMAND</c>: the command is the user's program, started by tplab and never left behind.</summary>
[Collection(TestCollections.Watch)]
public sealed class WatchCommandTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    // The target without --watch-parent does not read its stdin: like any user's app, it must be ended by tplab.
    // `sleep` is not .NET: killed while tplab still waits for a runtime to connect.
    [Theory]
    [InlineData("dotnet")]
    [InlineData("sleep")]
    public async Task TplabKilled9_TheCommandEndsToo(string kind)
    {
        var marker = "tplab-orphan-" + Guid.NewGuid().ToString("N")[..8];
        var seconds = "300." + Random.Shared.Next(100_000, 999_999).ToString(CultureInfo.InvariantCulture);
        string[] command = kind == "dotnet"
            ? [DotnetHost.Path, Path.Combine(AppContext.BaseDirectory, "Tplab.Target.dll"), "serve", "--port", "0"]
            : ["sleep", seconds];
        var output = Path.Combine(Path.GetTempPath(), marker + ".jsonl");
        await using var tplab = TplabCli.Start(["watch", "--format", "jsonl", "--output", output, "--", .. command]);
        var pid = 0;
        try
        {
            if (kind == "dotnet")
            {
                var line = await tplab.WaitForLineAsync(l => l.StartsWith("tplab watch: watching pid ", StringComparison.Ordinal), Limit);
                pid = int.Parse(line.Split(' ')[4], CultureInfo.InvariantCulture);
            }
            else
            {
                // tplab's own command line holds the same words, and so does a child of tplab between its fork and its
                // exec: the command is the process whose program is sleep, taken from the same read that found it.
                int[] Sleeps() => [.. ProcessTable.WithCommandLine("sleep " + seconds).Where(p => p != tplab.Id && Program(p) == "sleep")];
                int[] found = [];
                Assert.True(await ProcessTable.EventuallyAsync(() => (found = Sleeps()).Length == 1, TimeSpan.FromSeconds(20)), "the command never started");
                pid = found[0];
            }
            Assert.True(ProcessTable.IsAlive(pid));

            ProcessTree.Signal(tplab.Id, "KILL");

            Assert.True(await ProcessTable.EventuallyAsync(() => !ProcessTable.IsAlive(pid), TimeSpan.FromSeconds(10)), $"the {kind} command (pid {pid}) outlived tplab");
        }
        finally
        {
            File.Delete(output);
            if (pid > 0 && ProcessTable.IsAlive(pid))
            {
                ProcessTree.Signal(pid, "KILL"); // the test failed: leave no orphan behind it
            }
        }
    }

    private static string? Program(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/comm").TrimEnd('\n');
        }
        catch (IOException)
        {
            return null; // ended since it was listed
        }
    }

    [Theory]
    [InlineData("/bin/true", ExitCodes.NoProcess, "tplab: /bin/true exited with code 0 before a .NET runtime connected: it is not a .NET program")]
    [InlineData("/no/such/program", ExitCodes.Usage, "tplab: could not start /no/such/program")]
    public async Task CommandThatIsNotDotNet_OneLineAndItsCode(string command, int code, string start)
    {
        var (exit, _, stderr) = await TplabCli.RunAsync(Limit, "watch", "--", command);
        Assert.Equal(code, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith(start, line, StringComparison.Ordinal);
    }

    // A failure between start and resume (the session refused, say) must not leave a runtime suspended, nor wait for it.
    [Fact]
    public async Task StartedButNeverResumed_IsKilledAtOnce()
    {
        var target = Path.Combine(AppContext.BaseDirectory, "Tplab.Target.dll");
        var connection = await Tplab.Runtime.RuntimeConnection.LaunchAsync([DotnetHost.Path, target, "serve", "--port", "0"], TimeSpan.FromSeconds(30), CancellationToken.None);
        var pid = connection.ProcessId;
        Assert.True(ProcessTable.IsAlive(pid));
        var clock = System.Diagnostics.Stopwatch.StartNew();

        await connection.DisposeAsync();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"disposing took {clock.Elapsed}: it waited for a suspended runtime to end by itself");
        Assert.True(await ProcessTable.EventuallyAsync(() => !ProcessTable.IsAlive(pid), TimeSpan.FromSeconds(3)), "the suspended runtime was left behind");
    }

    // The HTML page is one document: a watch killed before its end leaves no page at all, not an empty or half one.
    [Fact]
    public async Task HtmlPage_TplabKilledMidWatch_LeavesNoHalfPage()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        var page = Path.Combine(Path.GetTempPath(), $"tplab-page-{Guid.NewGuid():N}.html");
        await using var tplab = TplabCli.Start("watch", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--format", "html", "--output", page);
        await tplab.WaitForLineAsync(l => l.StartsWith("tplab watch: watching pid ", StringComparison.Ordinal), Limit);

        ProcessTree.Signal(tplab.Id, "KILL");
        await tplab.Exited.WaitAsync(Limit);

        Assert.False(File.Exists(page), "a half-written page was left");
        // what a kill -9 does leave: the hidden temporary file, beside where the page would have been
        foreach (var temp in Directory.GetFiles(Path.GetTempPath(), $".{Path.GetFileName(page)}.*.tmp"))
        {
            File.Delete(temp);
        }
    }
}
