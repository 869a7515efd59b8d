using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Diagnose.Offline;
using Tplab.Target;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>
/// <c>tplab diagnose --trace</c> on traces made by the real dotnet-trace and by <c>--keep-trace</c>, against a target
/// whose pool starves on Thread.Sleep; and the documented dotnet-trace line is the code's provider list.
/// </summary>
public sealed class OfflineTraceTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(90);

    [Fact]
    public void DocsDiagnose_DotnetTraceLine_IsTheCodesProviderList()
    {
        var doc = File.ReadAllText(Path.Combine(RepoPaths.Root, "docs", "diagnose.md"));

        Assert.Contains($"--providers '{TraceRecipe.ProvidersArgument()}'", doc, StringComparison.Ordinal);
    }

    [DotnetTraceFact]
    public async Task DotnetTraceFile_GivesTheLiveDiagnosis_AndATruncatedCopyIsOneLineExit2()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-trace-");
        try
        {
            var trace = Path.Combine(dir.FullName, "sleep.nettrace");
            await using (var target = await TargetProcess.StartTargetAsync(new TargetOptions()))
            await using (var flood = Flood.Start(target.Url("/sleep?ms=500"), 24, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(15)))
            {
                await Task.Delay(TimeSpan.FromSeconds(1.5));
                var pid = target.ProcessId.ToString(CultureInfo.InvariantCulture);
                var collect = new ProcessStartInfo(Preconditions.DotnetTrace!)
                {
                    ArgumentList = { "collect", "-p", pid, "--duration", "00:00:00:03", "--providers", TraceRecipe.ProvidersArgument(), "-o", trace },
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                };
                using var tool = Process.Start(collect)!;
                var toolOut = tool.StandardOutput.ReadToEndAsync();
                var toolErr = await tool.StandardError.ReadToEndAsync();
                await tool.WaitForExitAsync().WaitAsync(Limit);
                Assert.True(tool.ExitCode == 0 && File.Exists(trace), $"dotnet-trace exit {tool.ExitCode}: {await toolOut} {toolErr}");
            }

            var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "diagnose", "--trace", trace, "--format", "json");

            Assert.True(code == 0, stderr);
            using var doc = JsonDocument.Parse(stdout);
            var root = doc.RootElement;
            Assert.Equal("blocked", root.GetProperty("verdict").GetString());
            var top = root.GetProperty("culprits")[0];
            Assert.Equal("Thread.Sleep", top.GetProperty("blockingCall").GetString());
            Assert.EndsWith("WaitController.Sleep", top.GetProperty("userFrame").GetString(), StringComparison.Ordinal);
            Assert.Equal("10", root.GetProperty("runtimeVersion").GetString()!.Split('.')[0]);
            Assert.Equal("trace", root.GetProperty("source").GetProperty("kind").GetString());
            Assert.Equal(JsonValueKind.Null, root.GetProperty("source").GetProperty("missing").ValueKind);
            Assert.Equal("starving", root.GetProperty("pool").GetProperty("verdict").GetString());

            var truncated = Path.Combine(dir.FullName, "truncated.nettrace");
            var bytes = await File.ReadAllBytesAsync(trace);
            await File.WriteAllBytesAsync(truncated, bytes[..(bytes.Length / 2)]);
            var (cutCode, cutOut, cutErr) = await TplabCli.RunAsync(Limit, "diagnose", "--trace", truncated);
            Assert.Equal(ExitCodes.Usage, cutCode);
            Assert.Equal("", cutOut);
            Assert.Single(cutErr.TrimEnd('\n').Split('\n'));
            Assert.Contains("not a readable .nettrace", cutErr, StringComparison.Ordinal);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task KeepTrace_IsReadBackByTrace_WithTheSameCulprit()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-keep-");
        try
        {
            var kept = Path.Combine(dir.FullName, "kept.nettrace");
            string live;
            await using (var target = await TargetProcess.StartTargetAsync(new TargetOptions()))
            await using (var flood = Flood.Start(target.Url("/sleep?ms=500"), 24, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(15)))
            {
                await Task.Delay(TimeSpan.FromSeconds(1.5));
                var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "diagnose", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--duration", "2s", "--keep-trace", kept, "--format", "json");
                Assert.True(code == 0, stderr);
                live = stdout;
            }

            var (again, offline, error) = await TplabCli.RunAsync(Limit, "diagnose", "--trace", kept, "--format", "json");

            Assert.True(again == 0, error);
            Assert.Empty(Directory.GetFiles(dir.FullName, "*.tmp"));
            using var liveDoc = JsonDocument.Parse(live);
            using var offlineDoc = JsonDocument.Parse(offline);
            string Top(JsonDocument d) => d.RootElement.GetProperty("culprits")[0].GetProperty("userFrame").GetString()!;
            Assert.Equal(Top(liveDoc), Top(offlineDoc));
            Assert.Equal(liveDoc.RootElement.GetProperty("processId").GetInt32(), offlineDoc.RootElement.GetProperty("processId").GetInt32());
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Theory]
    // a file that is not a trace, an empty one, one that does not exist
    [InlineData("hello, not a trace\n", "is not a .nettrace file")]
    [InlineData("", "is not a .nettrace file")]
    [InlineData(null, "cannot read --trace")]
    public async Task BadTraceFile_OneLineExit2_NothingOnStdout(string? content, string message)
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-bad-{Guid.NewGuid():N}.nettrace");
        if (content is not null)
        {
            await File.WriteAllTextAsync(path, content);
        }
        try
        {
            var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "diagnose", "--trace", path);

            Assert.Equal(ExitCodes.Usage, code);
            Assert.Equal("", stdout);
            Assert.Single(stderr.TrimEnd('\n').Split('\n'));
            Assert.Contains(message, stderr, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
