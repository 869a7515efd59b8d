using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>The real <c>tplab diagnose</c> command: bad input gives one line and its exit code; json on a real target.</summary>
[Collection(TestCollections.Diagnose)]
public sealed class DiagnoseCliTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    [Theory]
    // no such process, and a process that is not .NET (this test's shell parent is not; pid 1 of a container may be anything)
    [InlineData("999999", ExitCodes.NoProcess, "no process with id 999999")]
    [InlineData("0", ExitCodes.Usage, "PID must be a process id")]
    // bad options
    [InlineData("1 --duration 0.1s", ExitCodes.Usage, "--duration must be between 0.2s and 120s")]
    [InlineData("1 --duration soon", ExitCodes.Usage, "--duration must be a duration")]
    [InlineData("1 --format xml", ExitCodes.Usage, "--format must be one of text, json")]
    public async Task Diagnose_BadInput_OneLineAndDocumentedExitCode(string args, int exitCode, string message)
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Timeout, ["diagnose", .. args.Split(' ')]);

        Assert.Equal(exitCode, code);
        Assert.Equal("", stdout);
        Assert.Single(stderr.TrimEnd('\n').Split('\n'));
        Assert.Contains(message, stderr, StringComparison.Ordinal);
    }

    [Theory]
    // a folder that cannot be written, a folder given as the file, a folder that does not exist
    [InlineData("/proc/kept.nettrace", "could not write --keep-trace /proc/kept.nettrace")]
    [InlineData("/tmp", "cannot write --keep-trace /tmp: it is a folder")]
    [InlineData("/no/such/folder/kept.nettrace", "cannot write --keep-trace /no/such/folder/kept.nettrace: the folder /no/such/folder does not exist")]
    public async Task Diagnose_KeepTraceThatCannotBeWritten_FailsBeforeTheCaptureNamingThePathGiven(string keep, string message)
    {
        // This test's own process is a .NET process: were the check after the capture, it would be captured for 30 s.
        var started = System.Diagnostics.Stopwatch.GetTimestamp();

        var (code, stdout, stderr) = await TplabCli.RunAsync(Timeout, "diagnose", Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture), "--duration", "30s", "--keep-trace", keep);

        Assert.Equal(ExitCodes.OutputFailed, code);
        Assert.Equal("", stdout);
        var line = Assert.Single(stderr.TrimEnd('\n').Split('\n'));
        Assert.Contains(message, line, StringComparison.Ordinal);
        Assert.DoesNotContain(".tmp", line, StringComparison.Ordinal);
        Assert.True(System.Diagnostics.Stopwatch.GetElapsedTime(started) < TimeSpan.FromSeconds(20), "failed after a capture, not before");
    }

    [Fact]
    public async Task Diagnose_NotDotNet_SaysSoWithExit5()
    {
        using var sleeper = System.Diagnostics.Process.Start("sleep", "30");
        try
        {
            var (code, _, stderr) = await TplabCli.RunAsync(Timeout, "diagnose", sleeper.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));

            Assert.Equal(ExitCodes.NoProcess, code);
            Assert.Contains("is not a .NET process", stderr, StringComparison.Ordinal);
        }
        finally
        {
            sleeper.Kill();
        }
    }

    [Fact]
    public async Task Diagnose_JsonOnSleepingTarget_HasVerdictAndCulpritFields()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        await using var flood = Flood.Start(target.Url("/sleep?ms=500"), 20, TimeSpan.FromSeconds(15), TimeSpan.FromSeconds(10));
        await Task.Delay(TimeSpan.FromSeconds(1));

        var (code, stdout, stderr) = await TplabCli.RunAsync(Timeout, "diagnose", target.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture), "--duration", "2s", "--format", "json");

        Assert.True(code == 0, stderr);
        using var doc = JsonDocument.Parse(stdout);
        var root = doc.RootElement;
        Assert.Equal("blocked", root.GetProperty("verdict").GetString());
        var culprit = root.GetProperty("culprits")[0];
        Assert.Equal("Thread.Sleep", culprit.GetProperty("blockingCall").GetString());
        Assert.Equal("Tplab.Target.Controllers.WaitController.Sleep", culprit.GetProperty("userFrame").GetString());
        Assert.True(culprit.GetProperty("threads").GetDouble() > 0);
        Assert.True(culprit.GetProperty("share").GetDouble() > 0);
        Assert.True(culprit.GetProperty("stack").GetArrayLength() > 1);
        Assert.Contains("Task.Delay", culprit.GetProperty("advice").GetString(), StringComparison.Ordinal);
        Assert.NotNull(root.GetProperty("pool").GetProperty("verdict").GetString());
    }
}
