using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary><c>tplab diagnose --dump</c> on a dump the runtime's own createdump wrote of a target starving on Thread.Sleep.</summary>
[Collection(TestCollections.Diagnose)]
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
                var (exit, output) = await Preconditions.RunToolAsync(Preconditions.Createdump!, Limit, "-f", dump, target.ProcessId.ToString(CultureInfo.InvariantCulture));
                Assert.True(exit == 0 && File.Exists(dump), $"createdump exit {exit}: {output}");
            }

            using var doc = await SleepDiagnosis.AssertBlockedOnSleepAsync(Limit, "dump", "--dump", dump);

            var root = doc.RootElement;
            Assert.True(root.GetProperty("culprits")[0].GetProperty("threads").GetDouble() >= 1, root.ToString());
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

    [GcoreFact]
    public async Task DumpOfAProcessWithoutDotNet_OneLineExit2()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-core-");
        using var sleep = System.Diagnostics.Process.Start("sleep", "30");
        try
        {
            var (exit, output) = await Preconditions.RunToolAsync(Preconditions.Gcore!, Limit, "-o", Path.Combine(dir.FullName, "core"), sleep.Id.ToString(CultureInfo.InvariantCulture));
            var cores = Directory.GetFiles(dir.FullName, "core*");
            Assert.True(cores.Length == 1, $"gcore exit {exit}: {output}");
            var core = cores[0];

            var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "diagnose", "--dump", core);

            Assert.Equal(ExitCodes.Usage, code);
            Assert.Equal("", stdout);
            Assert.Contains("without a .NET runtime", Assert.Single(stderr.TrimEnd('\n').Split('\n')), StringComparison.Ordinal);
        }
        finally
        {
            sleep.Kill();
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
