using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Tplab.Common;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Watch.Export;

/// <summary>Exporters that cannot do their work: one line each, and the watch goes on where it can.</summary>
[Collection(TestCollections.Watch)]
public sealed class ExportBadInputTests(TargetFixture fixture, ITestOutputHelper output) : IClassFixture<TargetFixture>
{
    [Fact]
    public async Task WatchPrometheus_AddressInUse_OneLineExit8()
    {
        using var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        var port = ((IPEndPoint)taken.LocalEndpoint).Port.ToString(CultureInfo.InvariantCulture);

        var (exit, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(60), "watch", Pid, "--prometheus", "127.0.0.1:" + port, "--duration", "2s", "--format", "jsonl");

        output.WriteLine(stderr);
        Assert.Equal(ExitCodes.OutputFailed, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains($"--prometheus 127.0.0.1:{port}", line, StringComparison.Ordinal);
        Assert.Contains("in use", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WatchOtlp_CollectorRefuses_SaysSoOnceAndKeepsWatching()
    {
        // Bound and never listening: every export is refused.
        using var refusing = Ports.Refusing();
        var port = refusing.ToString();

        var (exit, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(60), "watch", Pid, "--otlp", "http://127.0.0.1:" + port,
            "--interval", "0.5s", "--duration", "4s", "--format", "jsonl");

        output.WriteLine(stderr);
        Assert.Equal(0, exit);
        Assert.Single(stderr.Split('\n'), l => l.Contains("OTLP export", StringComparison.Ordinal) && l.Contains("failed", StringComparison.Ordinal));
        Assert.True(stdout.Split('\n').Count(l => l.Contains("\"type\":\"sample\"", StringComparison.Ordinal)) >= 4, "the watch stopped sampling");
    }

    [Theory]
    [InlineData("--prometheus", "9464x", "--prometheus must be [HOST]:PORT")]
    [InlineData("--prometheus", "example.com:9464", "is not an IP address")]
    [InlineData("--otlp", "127.0.0.1:4317", "--otlp must be")]
    [InlineData("--all", null, "--all goes with -n NAME")]
    public async Task Watch_BadExportOption_OneLineExit2(string option, string? value, string expected)
    {
        string[] args = value is null ? ["watch", Pid, option] : ["watch", Pid, option, value];

        var (exit, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(30), args);

        Assert.Equal(ExitCodes.Usage, exit);
        Assert.Contains(expected, Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    private string Pid => fixture.Target.ProcessId.ToString(CultureInfo.InvariantCulture);
}
