using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Target;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary><c>tplab diagnose --dump</c> on a dump the runtime's own createdump wrote of a target starving on Thread.Sleep.</summary>
public sealed class DumpDiagnoseTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(120);

    [CreatedumpFact]
    public async Task CreatedumpOfStarvingTarget_NamesTheSleepAndThePool_AndACutDumpIsOneLine()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-dump-");
        try
        {
            var dump = Path.Combine(dir.FullName, "target.dmp");
            await using (var target = await TargetProcess.StartTargetAsync(new TargetOptions()))
            await using (var flood = Flood.Start(target.Url("/sleep?ms=2000"), 24, TimeSpan.FromSeconds(30), TimeSpan.FromSeconds(15)))
            {
                await Task.Delay(TimeSpan.FromSeconds(2));
                var info = new ProcessStartInfo(Preconditions.Createdump!)
                {
                    ArgumentList = { "-f", dump, target.ProcessId.ToString(CultureInfo.InvariantCulture) },
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                };
                using var createdump = Process.Start(info)!;
                var output = createdump.StandardOutput.ReadToEndAsync();
                var error = await createdump.StandardError.ReadToEndAsync();
                await createdump.WaitForExitAsync().WaitAsync(Limit);
                Assert.True(createdump.ExitCode == 0 && File.Exists(dump), $"createdump exit {createdump.ExitCode}: {await output} {error}");
            }

            var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "diagnose", "--dump", dump, "--format", "json");

            Assert.True(code == 0, stderr);
            using var doc = JsonDocument.Parse(stdout);
            var root = doc.RootElement;
            Assert.Equal("blocked", root.GetProperty("verdict").GetString());
            var top = root.GetProperty("culprits")[0];
            Assert.Equal("Thread.Sleep", top.GetProperty("blockingCall").GetString());
            Assert.EndsWith("WaitController.Sleep", top.GetProperty("userFrame").GetString(), StringComparison.Ordinal);
            Assert.True(top.GetProperty("threads").GetDouble() >= 1, stdout);
            Assert.Equal("dump", root.GetProperty("source").GetProperty("kind").GetString());
            Assert.Contains("worker threads", root.GetProperty("pool").GetProperty("unavailable").GetString(), StringComparison.Ordinal);

            var cut = Path.Combine(dir.FullName, "cut.dmp");
            await using (var from = File.OpenRead(dump))
            await using (var to = File.Create(cut))
            {
                var head = new byte[4096];
                await from.ReadExactlyAsync(head);
                await to.WriteAsync(head);
            }
            var (cutCode, cutOut, cutErr) = await TplabCli.RunAsync(Limit, "diagnose", "--dump", cut);
            Assert.True(cutCode is ExitCodes.Usage or ExitCodes.NoProcess, $"exit {cutCode}: {cutErr}");
            Assert.Equal("", cutOut);
            Assert.Single(cutErr.TrimEnd('\n').Split('\n'));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task NotADump_OneLineExit2()
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-notdump-{Guid.NewGuid():N}.dmp");
        await File.WriteAllTextAsync(path, "not a dump at all\n");
        try
        {
            var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "diagnose", "--dump", path);

            Assert.Equal(ExitCodes.Usage, code);
            Assert.Equal("", stdout);
            Assert.Single(stderr.TrimEnd('\n').Split('\n'));
            Assert.Contains("not a readable process dump", stderr, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
