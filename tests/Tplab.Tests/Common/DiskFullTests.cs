using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Lab.Results;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>
/// The results disk full (issue 21) while tplab writes a scenario's CSV, its timeline JSONL, summary.json or
/// report.html, a load's CSV, a watch's JSONL: one line naming the folder and the reason, exit 8, every file written
/// before it whole, no temporary file left, and the results folder marked unfinished. A small tmpfs (root only).
/// </summary>
public sealed class DiskFullTests
{
    private static ScenarioResult Result() => FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), requests: 400, waitedStepMs: 10);

    // The files of one scenario in the order the lab writes them, and how big each is.
    private static (string File, long Size)[] Sizes()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-sizes-").FullName;
        try
        {
            Write(folder);
            return [.. new[] { "ab-100/sleep.requests.csv", "ab-100/sleep.timeline.jsonl", "summary.json", "report.html" }
                .Select(f => (f, new FileInfo(Path.Combine(folder, f)).Length))];
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static void Write(string folder)
    {
        var result = Result();
        var writer = new ResultsWriter(folder, new LabOptions(), SeedFigures.Load());
        writer.WriteScenarioFiles(result);
        writer.AddCharts(result);
        var experiment = Lessons.Complete(FakeLabResults.Experiment(result.Scenario), [result], SeedFigures.Load());
        writer.WriteSummary(new LabResult(folder, [experiment], [], false));
    }

    [RootTheory]
    [InlineData(0)] // the CSV
    [InlineData(1)] // the timeline
    [InlineData(2)] // summary.json
    [InlineData(3)] // report.html
    public void ResultsWriter_DiskFullAtEachFile_OneLineExit8FilesBeforeWholeNoTemporary(int failing)
    {
        var sizes = Sizes();
        using var disk = SmallDisk.Mount();
        // Room for the files before the failing one, in whole pages, and not one page more.
        disk.Leave(sizes.Take(failing).Sum(s => (s.Size + 4095) / 4096 * 4096));

        var e = Assert.Throws<TplabException>(() => Write(disk.Path));

        Assert.Equal(ExitCodes.OutputFailed, e.ExitCode);
        Assert.Contains(disk.Path, e.Message, StringComparison.Ordinal);
        Assert.Contains("No space left on device", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
        foreach (var (file, _) in sizes.Take(failing))
        {
            Assert.True(File.Exists(Path.Combine(disk.Path, file)), $"{file} was lost");
        }
        Assert.False(File.Exists(Path.Combine(disk.Path, sizes[failing].File)), $"{sizes[failing].File} is there, half-written");
        Assert.DoesNotContain(Directory.EnumerateFiles(disk.Path, "*.tmp", SearchOption.AllDirectories), _ => true);
        FaultRun.AssertWhole(disk.Path);
    }

    [RootFact]
    public async Task Run_ResultsOnAFullDisk_Exit8OneLineFolderMarkedUnfinished()
    {
        using var disk = SmallDisk.Mount();
        var plan = Path.Combine(disk.Path, "plan.yaml");
        File.WriteAllText(plan, "name: full\nscenarios:\n  - { id: s, variant: delay, waitMs: 10, load: { concurrency: 2, requests: 200 } }\n");
        // Room for the scenario's CSV, timeline and summary, not for report.html (a few hundred KB with its charts).
        disk.Leave(96 * 1024);

        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(2), "run", "--plan", plan, "--results", Path.Combine(disk.Path, "results"), "--no-diagnose");

        Assert.True(code == ExitCodes.OutputFailed, $"exit {code}: {stderr}");
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("tplab: cannot write results into ", line, StringComparison.Ordinal);
        Assert.Contains("No space left on device", line, StringComparison.Ordinal);
        var folder = FaultRun.OnlyFolder(Path.Combine(disk.Path, "results"));
        FaultRun.AssertWhole(folder);
        Assert.True(File.Exists(Path.Combine(folder, ResultsFolder.UnfinishedMarker)), "the folder is not marked unfinished");
        using (JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "summary.json"))))
        {
        }
    }

    [RootFact]
    public async Task Load_CsvOnAFullDisk_Exit8NoHalfFile()
    {
        using var disk = SmallDisk.Mount();
        disk.Leave(0);
        var output = Path.Combine(disk.Path, "out.csv");

        var (code, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture,
            "load", "http://127.0.0.1:9/", "-n", "3000", "--format", "csv", "-o", output, "-q");

        Assert.True(code == ExitCodes.OutputFailed, $"exit {code}: {stderr}");
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(output, line, StringComparison.Ordinal);
        Assert.Contains("No space left on device", line, StringComparison.Ordinal);
        Assert.Empty(stdout);
        Assert.Equal([Path.Combine(disk.Path, ".filler")], Directory.GetFiles(disk.Path));
    }

    [RootFact]
    public async Task Watch_JsonlOnAFullDisk_EndsAtOnceExit8()
    {
        using var disk = SmallDisk.Mount();
        disk.Leave(0);
        var output = Path.Combine(disk.Path, "watch.jsonl");

        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1), "watch", "--format", "jsonl", "-o", output, "--interval", "0.25s",
            "--duration", "40s", "--", Tplab.Launch.DotnetHost.Path, Tplab.Launch.DotnetHost.TargetFile(".dll"), "serve", "--port", "0");

        Assert.True(code == ExitCodes.OutputFailed, $"exit {code}: {stderr}");
        Assert.Contains("No space left on device", stderr, StringComparison.Ordinal);
        Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => l.StartsWith("tplab: ", StringComparison.Ordinal));
    }
}
