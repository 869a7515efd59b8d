using System.Diagnostics;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load;

/// <summary><c>tplab load</c> as a user meets it, through the real CLI: bad input is one line and a documented exit code.</summary>
public sealed class LoadCliTests(TargetFixture fixture) : IClassFixture<TargetFixture>
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    [Theory]
    // malformed or not HTTP
    [InlineData("not a url", "-n", "1")]
    [InlineData("ftp://127.0.0.1/", "-n", "1")]
    [InlineData("/relative/path", "-n", "1")]
    // not loopback without --allow-remote
    [InlineData("http://example.com/", "-n", "1")]
    [InlineData("http://10.0.0.1/", "-n", "1")]
    // zero, negative or absurd
    [InlineData("http://127.0.0.1/", "-n", "0")]
    [InlineData("http://127.0.0.1/", "-n", "-5")]
    [InlineData("http://127.0.0.1/", "-c", "0", "-n", "1")]
    [InlineData("http://127.0.0.1/", "-c", "20000", "-n", "20000")]
    [InlineData("http://127.0.0.1/", "--rate", "0", "--duration", "1s")]
    [InlineData("http://127.0.0.1/", "--rate", "1000000", "--duration", "1s")]
    [InlineData("http://127.0.0.1/", "--duration", "0s")]
    [InlineData("http://127.0.0.1/", "--duration", "25h")]
    [InlineData("http://127.0.0.1/", "--duration", "ten seconds")]
    [InlineData("http://127.0.0.1/", "--timeout", "-1s", "-n", "1")]
    [InlineData("http://127.0.0.1/", "--think", "5s..1s", "-n", "1")]
    // unbounded, or options of the other model
    [InlineData("http://127.0.0.1/", "-c", "5")]
    [InlineData("http://127.0.0.1/", "--rate", "10")]
    [InlineData("http://127.0.0.1/", "--rate", "10", "--duration", "1s", "--loops", "2")]
    // unknown format, or an output whose format cannot be told
    [InlineData("http://127.0.0.1/", "-n", "1", "--format", "xml")]
    [InlineData("http://127.0.0.1/", "-n", "1", "--output", "report.xyz")]
    public async Task BadInput_OneLineAndUsageExitCode(params string[] args)
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, ["load", .. args]);
        Assert.Equal(ExitCodes.Usage, code);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("tplab: ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stderr + stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UnwritableOutput_ExitsWithOutputFailedBeforeLoading()
    {
        var (code, _, stderr) = await TplabCli.RunAsync(Limit, "load", fixture.Url("/").ToString(), "-n", "1", "--format", "json", "--output", "/nonexistent-dir/x/out.json");
        Assert.Equal(ExitCodes.OutputFailed, code);
        Assert.Contains("/nonexistent-dir/x/out.json", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task RefusedTarget_PrintsTheSummaryWithTheErrorsAndExitsUnreachable()
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "load", "http://127.0.0.1:1/", "-n", "3");
        Assert.Equal(ExitCodes.Unreachable, code);
        Assert.Contains("Requests      3 (succeeded 0, failed 3)", stdout, StringComparison.Ordinal);
        Assert.Contains("connect:", stdout, StringComparison.Ordinal);
        Assert.StartsWith("tplab: 127.0.0.1:1 could not be reached", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SeveralFormats_GoToStdoutAndToTheirFiles()
    {
        var json = Path.Combine(Path.GetTempPath(), $"tplab-load-{Guid.NewGuid():N}.json");
        var csv = Path.ChangeExtension(json, ".csv");
        try
        {
            var (code, stdout, _) = await TplabCli.RunAsync(Limit, "load", fixture.Url("/delay?ms=10").ToString(), "-n", "20", "-c", "5",
                "--format", "ab", "--output", "-", "--output", json, "--output", csv);
            Assert.Equal(0, code);
            Assert.Contains("Percentage of the requests served within a certain time (ms)", stdout, StringComparison.Ordinal);
            var summary = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(json))!;
            Assert.Equal(20, (int)summary["requests"]!);
            Assert.Equal(21, File.ReadAllLines(csv).Length);
        }
        finally
        {
            File.Delete(json);
            File.Delete(csv);
        }
    }

    [Fact]
    public async Task CtrlC_StopsSendingPrintsThePartialSummaryAndExits130()
    {
        var info = TplabCli.StartInfo("load", fixture.Url("/delay?ms=200").ToString(), "-c", "4", "--duration", "60s");
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        // Interrupted once it is sending (its Ctrl+C handler is in place before the run starts), not after a fixed 3 s
        // that a slow start on a busy machine may outlast.
        var port = fixture.Url("/").Port;
        await Eventually.UntilAsync(() => process.HasExited || HasConnectionTo(process.Id, port), TimeSpan.FromSeconds(30), "the load's first connection");
        using (var kill = Process.Start("kill", ["-" + ProcessTree.Interrupt, process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await kill.WaitForExitAsync();
        }
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        await process.WaitForExitAsync(cts.Token);
        Assert.Equal(ExitCodes.Interrupted, process.ExitCode);
        Assert.Contains("INTERRUPTED", await stdout, StringComparison.Ordinal);
        Assert.Contains("interrupted", await stderr, StringComparison.Ordinal);
    }

    // Whether process `pid` holds a TCP socket connected to `port` on loopback: its socket inodes (/proc/PID/fd) matched
    // against /proc/net/tcp (remote address in hex, inode in the tenth column).
    private static bool HasConnectionTo(int pid, int port)
    {
        var inodes = new HashSet<string>(StringComparer.Ordinal);
        try
        {
            foreach (var fd in Directory.EnumerateFileSystemEntries($"/proc/{pid}/fd"))
            {
                if (new FileInfo(fd).LinkTarget is { } target && target.StartsWith("socket:[", StringComparison.Ordinal))
                {
                    inodes.Add(target[8..^1]);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false; // exited meanwhile
        }
        var remote = ":" + port.ToString("X4", System.Globalization.CultureInfo.InvariantCulture);
        return File.ReadLines("/proc/net/tcp").Skip(1)
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Any(f => f.Length > 9 && f[2].EndsWith(remote, StringComparison.Ordinal) && inodes.Contains(f[9]));
    }
}
