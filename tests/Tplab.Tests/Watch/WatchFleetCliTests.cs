using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Processes;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Watch;

/// <summary>
/// One watch of several processes through the real CLI: several pids, <c>-n NAME --all</c> with a process that starts
/// later, one that exits mid-watch, <c>--fail-on</c> for any of them. The processes are real targets; for
/// <c>--all</c> they run under a name of their own, so other targets on the machine are not watched.
/// </summary>
[Collection(TestCollections.Watch)]
public sealed class WatchFleetCliTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task SeveralPids_OneExits_IsDroppedAndSaid_TheOtherGoesOn()
    {
        await using var a = await TargetProcess.StartTargetAsync(new TargetOptions());
        var b = await TargetProcess.StartTargetAsync(new TargetOptions());
        var exiting = b.ProcessId;
        var sampled = new SampledPids();
        var watch = TplabCli.RunAsync(Limit, new Dictionary<string, string>(), sampled.See, "watch", Pid(a.ProcessId), Pid(exiting), "--interval", "0.5s", "--duration", "6s", "--format", "jsonl");
        // Killed once the watch has sampled it, whenever that is on a loaded machine (not after a fixed 3 s).
        await Eventually.UntilAsync(() => sampled.Has(exiting), TimeSpan.FromSeconds(30), "a sample of the process to kill");
        b.Process.Kill();
        await b.DisposeAsync();

        var (exit, stdout, stderr) = await watch;

        output.WriteLine(stderr);
        Assert.Equal(ExitCodes.Ok, exit);
        Assert.Contains($"process {Pid(exiting)} (Tplab.Target) exited; dropped from the watch", stderr, StringComparison.Ordinal);
        var records = Records(stdout);
        Assert.Contains(records, r => r.Type == "sample" && r.Pid == a.ProcessId && r.Offset > 4);
        Assert.Contains(records, r => r.Type == "sample" && r.Pid == exiting);
        Assert.DoesNotContain(records, r => r.Type == "sample" && r.Pid == exiting && r.Offset > 4);
        Assert.Equal(2, records.Count(r => r.Type == "summary"));
    }

    [Fact]
    public async Task NameAll_AProcessStartingLater_IsPickedUp()
    {
        var name = "TplabFleet" + Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        await using var first = await StartNamedTargetAsync(name);
        var sampled = new SampledPids();
        var watch = TplabCli.RunAsync(Limit, new Dictionary<string, string>(), sampled.See, "watch", "-n", name, "--all", "--interval", "0.5s", "--duration", "15s", "--format", "jsonl", "--delay", "off");
        // The second starts once the watch is running (it has sampled the first), so it is one that starts later.
        // 15 s: with 8, a busy machine took the rest of the watch to sample the first and start the second.
        await Eventually.UntilAsync(() => sampled.Has(first.Id), TimeSpan.FromSeconds(30), "a sample of the first process");
        await using var second = await StartNamedTargetAsync(name);

        var (exit, stdout, stderr) = await watch;

        output.WriteLine(stderr);
        Assert.Equal(ExitCodes.Ok, exit);
        Assert.Contains($"process {Pid(second.Id)} ({name}) started; watching it too", stderr, StringComparison.Ordinal);
        var records = Records(stdout);
        Assert.Contains(records, r => r.Type == "sample" && r.Pid == first.Id);
        Assert.Contains(records, r => r.Type == "sample" && r.Pid == second.Id);
    }

    [Fact]
    public async Task SeveralPids_FailOnStarving_FiresForTheOneThatStarves()
    {
        await using var calm = await TargetProcess.StartTargetAsync(new TargetOptions());
        await using var blocked = await TargetProcess.StartTargetAsync(new TargetOptions());
        var watch = TplabCli.RunAsync(Limit, "watch", Pid(calm.ProcessId), Pid(blocked.ProcessId), "--fail-on", "starving", "--interval", "0.5s",
            "--duration", "30s", "--format", "jsonl", "--delay", "off");
        await Task.Delay(2000);
        await using (Flood.Start(new Uri(blocked.BaseAddress, "/sleep?ms=1000"), 60, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(30)))
        {
            var (exit, _, stderr) = await watch;

            output.WriteLine(stderr);
            Assert.Equal(ExitCodes.Starving, exit);
            // --fail-on starving fires on starving or lock-contention (docs/watch.md), and the same flood is read either
            // way by what its first window shows (a clean clone's run: 1.8 of 5 pool threads waiting on contended locks
            // at 2.5 s, so lock-contention). The line names the process that starves, never the calm one.
            var blockedPid = Pid(blocked.ProcessId);
            Assert.True(stderr.Contains($"the pool of process {blockedPid} is starving", StringComparison.Ordinal)
                || stderr.Contains($"the pool of process {blockedPid} is in lock-contention", StringComparison.Ordinal), stderr);
            Assert.DoesNotContain($"the pool of process {Pid(calm.ProcessId)} is", stderr, StringComparison.Ordinal);
        }
    }

    // The pids the watch's jsonl stdout has written a sample of so far, read line by line as they come.
    private sealed class SampledPids
    {
        private readonly System.Collections.Concurrent.ConcurrentDictionary<int, bool> _pids = new();

        public void See(string line)
        {
            if (string.IsNullOrWhiteSpace(line))
            {
                return;
            }
            using var doc = JsonDocument.Parse(line);
            if (doc.RootElement.GetProperty("type").GetString() == "sample")
            {
                _pids[doc.RootElement.GetProperty("pid").GetInt32()] = true;
            }
        }

        public bool Has(int pid) => _pids.ContainsKey(pid);
    }

    private static string Pid(int pid) => pid.ToString(CultureInfo.InvariantCulture);

    private static List<(string Type, int Pid, double Offset)> Records(string jsonl) =>
        [.. jsonl.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line =>
        {
            using var doc = JsonDocument.Parse(line);
            var r = doc.RootElement;
            var type = r.GetProperty("type").GetString()!;
            return (type, type == "summary" ? r.GetProperty("processId").GetInt32() : r.GetProperty("pid").GetInt32(),
                r.TryGetProperty("offsetSeconds", out var o) ? o.GetDouble() : 0);
        })];

    // The target's dll copied under another name: `dotnet NAME.dll` is called NAME, as an app of that name would be.
    private static async Task<ChildProcess> StartNamedTargetAsync(string name)
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fleet-").FullName;
        var dll = Path.Combine(folder, name + ".dll");
        File.Copy(DotnetHost.TargetFile(".dll"), dll);
        var info = new ProcessStartInfo(DotnetHost.Path)
        {
            ArgumentList = { "exec", "--runtimeconfig", DotnetHost.TargetFile(".runtimeconfig.json"), "--depsfile", DotnetHost.TargetFile(".deps.json"), dll, "serve", "--port", "0" },
        };
        var child = ChildProcess.Start(info, name, WhenTplabEnds.Kill);
        await child.WaitForLineAsync(l => l.Contains("listening on", StringComparison.Ordinal), TimeSpan.FromSeconds(30));
        return child;
    }
}
