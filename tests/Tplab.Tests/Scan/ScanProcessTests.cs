using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Tplab.Processes;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan;

/// <summary>The processes scan starts end with it; the other commands never load Roslyn.</summary>
[Collection(TestCollections.Diagnose)]
public sealed class ScanProcessTests
{
    [Fact]
    public async Task Scan_KilledWhileLoading_LeavesNoBuildHost()
    {
        var info = TplabCli.StartInfo("scan", Path.Combine(RepoPaths.Root, "tests", "scan-fixtures", "Shop"), "--no-restore");
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.RedirectStandardInput = true;
        using var tplab = Process.Start(info)!;
        try
        {
            var buildHosts = new List<int>();
            var deadline = Stopwatch.StartNew();
            while (buildHosts.Count == 0 && deadline.Elapsed < TimeSpan.FromSeconds(60) && !tplab.HasExited)
            {
                buildHosts = [.. ProcessTree.Descendants(tplab.Id).Where(p => string.Join(' ', ProcessFiles.CommandLine(p)).Contains("BuildHost", StringComparison.Ordinal))];
                await Task.Delay(20);
            }
            Assert.True(buildHosts.Count > 0, "the build host was never seen (scan finished first or did not start it)");
            // Killed while the build host is still starting, before Roslyn connects to it: left alone, a host never
            // connected to waits for its client forever. tplab's guard looks for new hosts every 10 ms until it finds one.
            await Task.Delay(TimeSpan.FromMilliseconds(100));
            ProcessTree.Signal(tplab.Id, "KILL");
            await tplab.WaitForExitAsync();
            var gone = Stopwatch.StartNew();
            while (buildHosts.Any(ProcessFiles.IsAlive) && gone.Elapsed < TimeSpan.FromSeconds(20))
            {
                await Task.Delay(100);
            }
            Assert.True(!buildHosts.Any(ProcessFiles.IsAlive), $"build host(s) {string.Join(", ", buildHosts.Where(ProcessFiles.IsAlive))} outlived tplab by 20 s");
        }
        finally
        {
            if (!tplab.HasExited)
            {
                tplab.Kill(entireProcessTree: true);
            }
        }
    }

    [Fact]
    public async Task Load_WhileRunning_HasNoRoslynOrMsBuildAssemblyMapped()
    {
        // A loopback server that answers every request; its first request says the load is under way.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var stop = new CancellationTokenSource();
        var sending = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var server = Task.Run(async () =>
        {
            var reply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"u8.ToArray();
            while (!stop.IsCancellationRequested)
            {
                var client = await listener.AcceptTcpClientAsync(stop.Token);
                _ = Task.Run(async () =>
                {
                    using (client)
                    {
                        var stream = client.GetStream();
                        var buffer = new byte[4096];
                        while (await stream.ReadAsync(buffer, stop.Token) > 0)
                        {
                            sending.TrySetResult();
                            await stream.WriteAsync(reply, stop.Token);
                        }
                    }
                });
            }
        });
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        // Long enough to outlast a loaded machine's start; ended by the test once its assemblies are read.
        var info = TplabCli.StartInfo("load", $"http://127.0.0.1:{port}/", "--rate", "20", "--duration", "120s");
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        using var load = Process.Start(info)!;
        try
        {
            // Waited on the event, not a time: the first request reached the server, so the command is loading.
            var first = await Task.WhenAny(sending.Task, load.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(90)));
            Assert.True(first == sending.Task, load.HasExited ? $"tplab load ended (exit {load.ExitCode}) before it sent: {load.StandardError.ReadToEnd()}" : "tplab load sent nothing in 90 s");
            var mapped = File.ReadAllLines($"/proc/{load.Id}/maps").Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries).LastOrDefault() ?? "")
                .Where(f => f.EndsWith(".dll", StringComparison.Ordinal)).Select(Path.GetFileName).Distinct().ToList();
            Assert.Contains("Tplab.Core.dll", mapped);
            Assert.DoesNotContain(mapped, f => f!.StartsWith("Microsoft.CodeAnalysis", StringComparison.Ordinal) || f.StartsWith("Microsoft.Build", StringComparison.Ordinal));
        }
        finally
        {
            if (!load.HasExited)
            {
                load.Kill(entireProcessTree: true);
            }
            await load.WaitForExitAsync();
            await stop.CancelAsync();
            listener.Stop();
        }
    }
}
