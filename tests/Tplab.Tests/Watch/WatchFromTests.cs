using System.Globalization;
using Spectre.Console;
using Tplab.Common;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Output;
using Tplab.Watch.Running;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Watch;

/// <summary><c>tplab watch --from</c>: a saved watch written again, as the writer wrote it, whatever its verdicts and however it ended.</summary>
[Collection(TestCollections.Watch)]
public sealed class WatchFromTests : IDisposable
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-from-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static readonly DateTimeOffset Began = new(2026, 3, 14, 9, 26, 53, TimeSpan.Zero);

    // Half a second apart, one sample of each verdict the writer writes.
    private string Saved()
    {
        var verdicts = Enum.GetValues<PoolVerdict>();
        var samples = verdicts.Select((v, i) => new ThreadPoolSample(TimeSpan.FromSeconds(0.5 * (i + 1)), 4 + i, 10 * i, 3, 20, 5, 0, 10, v, $"sample {i}")
        {
            Cores = 2, MachineCpuPercent = 50, LockWaiters = i, RunnableWorkers = 1,
        });
        var path = Path.Combine(_folder, "saved.jsonl");
        using (var writer = new StreamWriter(path))
        {
            JsonlWatchWriter.WriteTimeline(new PoolTimeline(77, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(3), [.. samples], [], null, false) { StartedAt = Began }, writer);
        }
        return path;
    }

    [Fact]
    public async Task From_PipedWithoutFormat_WritesAVerdictLinePerSample_WithoutCursorOrColourCodes()
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, new Dictionary<string, string> { ["TERM"] = "xterm-256color" }, "watch", "--from", Saved());

        Assert.True(code == ExitCodes.Ok, stderr);
        Assert.DoesNotContain('\u001b', stdout);
        var lines = stdout.Trim().Split('\n');
        Assert.Equal(["HEALTHY", "STARVING", "RECOVERING", "LOCK-CONTENTION", "CPU-SATURATED"], lines[..5].Select(l => l.Split(':')[0]));
    }

    [Theory]
    [InlineData("jsonl", "\"verdict\":\"lock-contention\"")]
    [InlineData("csv", ",cpu-saturated,")]
    public async Task From_EveryVerdictTheWriterWrites_IsReadBack(string format, string expected)
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "watch", "--from", Saved(), "--format", format);

        Assert.True(code == ExitCodes.Ok, stderr);
        Assert.Contains(expected, stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task From_AFileCutMidLine_IsReadUpToItsLastWholeLine()
    {
        var path = Saved();
        var text = File.ReadAllText(path);
        File.WriteAllText(path, text[..(text.LastIndexOf("{\"type\":\"sample\"", StringComparison.Ordinal) + 40)]);

        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "watch", "--from", path, "--format", "jsonl");

        Assert.True(code == ExitCodes.Ok, stderr);
        Assert.Equal(4, stdout.Split('\n').Count(l => l.StartsWith("{\"type\":\"sample\"", StringComparison.Ordinal)));
        Assert.Contains("\"intervalSeconds\":0.5,", stdout, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("w.csv", "pid,offset_s,threads,queue,")]
    [InlineData("w.html", "<!DOCTYPE html>")]
    [InlineData("w.log", "{\"type\":\"sample\"")]
    public async Task From_OutputWithoutFormat_TakesTheFormatFromTheExtension_ElseJsonl(string name, string start)
    {
        var output = Path.Combine(_folder, name);

        var (code, _, stderr) = await TplabCli.RunAsync(Limit, "watch", "--from", Saved(), "-o", output);

        Assert.True(code == ExitCodes.Ok, stderr);
        Assert.StartsWith(start, File.ReadAllText(output), StringComparison.Ordinal);
    }

    [Fact]
    public async Task From_Html_IsStampedWithTheWatchsStart_NotTheTimeItWasWritten()
    {
        var output = Path.Combine(_folder, "w.html");

        var (code, _, stderr) = await TplabCli.RunAsync(Limit, "watch", "--from", Saved(), "-o", output);

        Assert.True(code == ExitCodes.Ok, stderr);
        Assert.Contains("\"startedAt\":\"2026-03-14T09:26:53", File.ReadAllText(output), StringComparison.Ordinal);
    }

    [Fact]
    public async Task From_OnATerminal_TheHeaderStatesTheFilesInterval()
    {
        var screen = new StringWriter(CultureInfo.InvariantCulture);
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.Yes, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(screen) });
        console.Profile.Width = 200;

        var code = await WatchRun.RunAsync(new WatchRunOptions { From = Saved() }, new WatchTerminal(console, TextWriter.Null, TextWriter.Null), CancellationToken.None);

        Assert.Equal(ExitCodes.Ok, code);
        Assert.Contains("saved.jsonl, every 0.50 s", screen.ToString(), StringComparison.Ordinal);
    }
}
