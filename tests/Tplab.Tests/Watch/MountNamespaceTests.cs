using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Tplab.Processes;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>
/// A target in its own mount namespace with a private /tmp (what a container sharing the host's pid namespace looks
/// like): tplab finds its diagnostic socket through /proc/PID/root/tmp, as container monitoring agents do.
/// </summary>
[Collection(TestCollections.Watch)]
public sealed class MountNamespaceTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    [RootFact]
    public async Task TargetWithPrivateTmp_IsFoundThroughProcRoot_AndWatched()
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "Tplab.Target.dll");
        // A checkout under /tmp (a clone made with mktemp -d) would vanish under the private /tmp: the namespace keeps
        // the old /tmp visible at /mnt first, and the target starts from there.
        // It runs in that folder too: a working folder under the hidden /tmp is a path that no longer resolves.
        var underTmp = dll.StartsWith("/tmp/", StringComparison.Ordinal);
        var started = underTmp ? "/mnt/" + dll["/tmp/".Length..] : dll;
        var privateTmp = underTmp ? $"mkdir -p /mnt && mount --bind /tmp /mnt && mount -t tmpfs tplab-private-tmp /tmp && cd \"{Path.GetDirectoryName(started)}\" && " : "mount -t tmpfs tplab-private-tmp /tmp && ";
        var info = new ProcessStartInfo("unshare")
        {
            // unshare execs sh, which execs the runtime: one pid throughout, so the socket is named with it.
            ArgumentList = { "--mount", "--propagation", "private", "sh", "-c", $"{privateTmp}exec \"{DotnetHost.Path}\" \"{started}\" serve --port 0 --watch-parent" },
        };
        await using var target = ChildProcess.Start(info, "target in a private /tmp");
        await target.WaitForLineAsync(l => l.StartsWith(TargetProcess.ReadyPrefix, StringComparison.Ordinal), Limit);
        var pid = target.Id;

        Assert.True(DiagnosticSocket.IsInOtherMountNamespace(pid));
        Assert.StartsWith($"/proc/{pid}/root/tmp/dotnet-diagnostic-{pid}-", DiagnosticSocket.Find(pid), StringComparison.Ordinal);
        // Not in the host's /tmp: no socket with this process's key (its start time). One of a dead process that had
        // the same pid may lie there (killed without removing it: seen in a CI run).
        var key = ProcessFiles.StartTicks(pid)!.Value.ToString(CultureInfo.InvariantCulture);
        Assert.Empty(Directory.GetFiles("/tmp", $"dotnet-diagnostic-{pid}-{key}-socket"));
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "watch", pid.ToString(CultureInfo.InvariantCulture), "--duration", "2s", "--interval", "0.5s", "--format", "jsonl");

        Assert.True(code == 0, stderr);
        using var summary = JsonDocument.Parse(stdout.Trim().Split('\n')[^1]);
        Assert.True(summary.RootElement.GetProperty("threadsPeak").GetInt32() > 0, stdout);
    }
}
