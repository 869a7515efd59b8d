using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load;

/// <summary>Real requests through the real CLI: targets files, per-target figures, streamed CSV, thresholds, and bad input that sends nothing.</summary>
public sealed class LoadRequestsCliTests(TargetFixture fixture) : IClassFixture<TargetFixture>
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData("--targets", "/nonexistent/targets.txt")]
    [InlineData("-H", "NoColonHere")]
    [InlineData("-d", "@/nonexistent/body.json")]
    [InlineData("--threshold", "p99<<500ms")]
    [InlineData("--threshold", "errors<5")]
    [InlineData("--threshold", "latency<5ms")]
    [InlineData("-X", "GE T")]
    public async Task BadRequestInput_OneLineUsageExitAndNothingSent(string option, string value)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var url = $"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}/";
        string[] args = option == "--targets" ? ["load", option, value, "-n", "1"] : ["load", url, option, value, "-n", "1"];
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, args);
        Assert.Equal(ExitCodes.Usage, code);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("tplab: ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stderr + stdout, StringComparison.Ordinal);
        Assert.False(listener.Pending(), "a connection was made although the input was refused");
    }

    [Fact]
    public async Task TargetsFile_PerTargetFiguresStreamedCsvAndAFailedThreshold()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-targets-");
        try
        {
            var body = Path.Combine(dir.FullName, "body.json");
            await File.WriteAllTextAsync(body, "{\"a\":1}");
            var targets = Path.Combine(dir.FullName, "targets.txt");
            await File.WriteAllTextAsync(targets, $"GET {fixture.Url("/delay?ms=1")}\n\nPOST {fixture.Url("/delay?ms=1")}\nContent-Type: application/json\n@{body}\n\n# a comment\nGET {fixture.Url("/no-such-route")}\n");
            var json = Path.Combine(dir.FullName, "out.json");
            var csv = Path.Combine(dir.FullName, "out.csv");
            var (code, _, stderr) = await TplabCli.RunAsync(Limit,
                "load", "--targets", targets, "-c", "3", "-n", "30", "-q", "--format", "json", "-o", json, "--format", "csv", "-o", csv,
                "--threshold", "errors<10%");
            Assert.Equal(ExitCodes.ThresholdsFailed, code);
            Assert.Contains("threshold failed: errors<10%", stderr, StringComparison.Ordinal);
            using var doc = JsonDocument.Parse(await File.ReadAllTextAsync(json));
            var root = doc.RootElement;
            var perTarget = root.GetProperty("targets").EnumerateArray().ToArray();
            Assert.Equal(["GET /delay?ms=1", "POST /delay?ms=1", "GET /no-such-route"], perTarget.Select(t => t.GetProperty("label").GetString()));
            Assert.All(perTarget, t => Assert.Equal(10, t.GetProperty("requests").GetInt64()));
            Assert.Equal(10, perTarget[2].GetProperty("statusCodes").GetProperty("404").GetInt64());
            Assert.Equal(10, perTarget[0].GetProperty("statusCodes").GetProperty("200").GetInt64());
            var threshold = Assert.Single(root.GetProperty("thresholds").EnumerateArray().ToArray());
            Assert.False(threshold.GetProperty("passed").GetBoolean());
            var rows = await File.ReadAllLinesAsync(csv);
            Assert.Equal(31, rows.Length);
            Assert.Equal(10, rows.Count(r => r.Contains(",GET /no-such-route,404,", StringComparison.Ordinal)));
            Assert.Empty(Directory.GetFiles(dir.FullName, "*.partial"));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task CrankFormat_FollowsTheStatisticsProtocol_AndTheWarmupIsNotCounted()
    {
        var (code, stdout, _) = await TplabCli.RunAsync(Limit, "load", fixture.Url("/delay?ms=1").ToString(), "-c", "2", "-n", "20", "--warmup", "500ms", "-q", "--format", "crank");
        Assert.Equal(ExitCodes.Ok, code);
        var lines = stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        // crank's agent reads the JSON between these two lines of the job's console output.
        Assert.Equal("#StartJobStatistics", lines[0]);
        Assert.Equal("#EndJobStatistics", lines[^1]);
        using var doc = JsonDocument.Parse(string.Join('\n', lines[1..^1]));
        var metadata = doc.RootElement.GetProperty("Metadata").EnumerateArray().ToArray();
        var measurements = doc.RootElement.GetProperty("Measurements").EnumerateArray().ToArray();
        Assert.All(metadata, m =>
        {
            Assert.Equal("tplab", m.GetProperty("Source").GetString());
            Assert.Contains(m.GetProperty("Aggregate").GetString(), new[] { "max", "sum" });
            Assert.Contains(m.GetProperty("Reduce").GetString(), new[] { "max", "sum" });
            Assert.False(string.IsNullOrEmpty(m.GetProperty("ShortDescription").GetString()));
            Assert.StartsWith("n", m.GetProperty("Format").GetString(), StringComparison.Ordinal);
        });
        var names = metadata.Select(m => m.GetProperty("Name").GetString()).ToHashSet();
        Assert.Equal(names, measurements.Select(m => m.GetProperty("Name").GetString()).ToHashSet());
        foreach (var standard in new[] { "http/requests", "http/requests/badresponses", "http/rps/mean", "http/latency/mean", "http/latency/50", "http/latency/99", "http/latency/max" })
        {
            Assert.Contains(standard, names);
        }
        var value = measurements.ToDictionary(m => m.GetProperty("Name").GetString()!, m => m.GetProperty("Value").GetDouble());
        Assert.Equal(20, value["http/requests"]);
        Assert.InRange(value["http/latency/50"], 0.9, 3000);
        Assert.True(DateTime.TryParse(measurements[0].GetProperty("Timestamp").GetString(), System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.RoundtripKind, out _));
    }
}
