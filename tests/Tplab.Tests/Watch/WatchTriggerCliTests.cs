using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>The real CLI on a target whose pool starves on Thread.Sleep: <c>--fail-on starving</c> and <c>--on-starving diagnose</c>.</summary>
[Collection(TestCollections.Watch)]
public sealed class WatchTriggerCliTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task FailOnStarving_ExitsWithCode9AsSoonAsStarving_KeepingTheData()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        var watch = TplabCli.RunAsync(Limit, "watch", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--interval", "0.5s", "--format", "jsonl", "--fail-on", "starving", "--duration", "40s");
        await Task.Delay(TimeSpan.FromSeconds(1));
        await using var flood = Flood.Start(target.Url("/sleep?ms=500"), 24, TimeSpan.FromSeconds(40), TimeSpan.FromSeconds(15));

        var (code, stdout, stderr) = await watch;

        Assert.True(code == ExitCodes.Starving, $"exit {code}: {stderr}");
        // --fail-on starving ends at the first sample whose threads are held: starving, or held by a lock
        // (lock-contention); the last line names the verdict that sample had, and that sample is in the data kept.
        var said = stderr.Trim().Split('\n')[^1];
        var verdict = said.Contains("is starving", StringComparison.Ordinal) ? "starving"
            : said.Contains("is in lock-contention", StringComparison.Ordinal) ? "lock-contention"
            : throw new Xunit.Sdk.XunitException($"no verdict in the last line: {said}");
        var lines = stdout.Trim().Split('\n');
        using var last = JsonDocument.Parse(lines[^1]);
        Assert.Equal("summary", last.RootElement.GetProperty("type").GetString());
        Assert.Contains(lines, l => l.Contains($"\"verdict\":\"{verdict}\"", StringComparison.Ordinal));
    }

    /// <summary>
    /// <c>PrometheusExportTests.WatchPrometheus_OnStarvingDiagnose_PublishesTheCulpritInfoSeries</c> runs the same
    /// trigger on the same flood and checks all of this (the line, the file's verdict, culprit and pool, samples past the
    /// capture): run by bench/suite-rows.sh.
    /// </summary>
    [BenchFact]
    [Trait("Category", Bench.RowCategory)]
    public async Task OnStarvingDiagnose_WritesTheDiagnosisWhileTheWatchGoesOn()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-onstarving-");
        try
        {
            var file = Path.Combine(dir.FullName, "diagnosis.json");
            await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
            var watch = TplabCli.RunAsync(Limit, "watch", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--interval", "0.5s", "--format", "csv",
                "--output", Path.Combine(dir.FullName, "watch.csv"), "--on-starving", "diagnose=" + file, "--duration", "14s");
            await Task.Delay(TimeSpan.FromSeconds(1));
            await using var flood = Flood.Start(target.Url("/sleep?ms=500"), 24, TimeSpan.FromSeconds(14), TimeSpan.FromSeconds(15));

            var (code, _, stderr) = await watch;

            Assert.True(code == 0, stderr);
            Assert.Contains("diagnosis written to " + file, stderr, StringComparison.Ordinal);
            using var doc = JsonDocument.Parse(await File.ReadAllTextAsync(file));
            Assert.Equal("blocked", doc.RootElement.GetProperty("verdict").GetString());
            Assert.Equal("Thread.Sleep", doc.RootElement.GetProperty("culprits")[0].GetProperty("blockingCall").GetString());
            // The pool line is read when the capture ends: by then the pool may have grown enough to be draining its queue.
            Assert.Contains(doc.RootElement.GetProperty("pool").GetProperty("verdict").GetString(), new[] { "starving", "recovering" });
            // The watch went on after the trigger: samples well past the capture.
            var rows = await File.ReadAllLinesAsync(Path.Combine(dir.FullName, "watch.csv"));
            Assert.True(rows.Length > 20, $"{rows.Length} rows");
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }
}
