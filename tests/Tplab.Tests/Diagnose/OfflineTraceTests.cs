using System.Globalization;
using System.Text.Json;
using Tplab.Blocking;
using Tplab.Common;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Offline;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>
/// <c>tplab diagnose --trace</c> on traces made by the real dotnet-trace and by <c>--keep-trace</c>, against a target
/// whose pool starves on Thread.Sleep; and the documented dotnet-trace line is the code's provider list.
/// </summary>
[Collection(TestCollections.Diagnose)]
public sealed class OfflineTraceTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(90);

    [Fact]
    public void DocsDiagnose_DotnetTraceLine_IsTheCodesProviderList()
    {
        var doc = File.ReadAllText(Path.Combine(RepoPaths.Root, "docs", "diagnose.md"));

        Assert.Contains($"--providers '{TraceRecipe.ProvidersArgument()}'", doc, StringComparison.Ordinal);
    }

    public static TheoryData<CapturedStacks, string?> TraceContentsCases
    {
        get
        {
            var frame = new Tplab.Blocking.StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Sleep");
            var samples = new List<RawSample> { new(1, 0, true, [frame]) };
            var waits = new List<RawWait> { new(1, 0, 5, [frame]) };
            var full = new TraceContents(7, "dotnet app.dll", null, EventsWithStacks: 2, RundownMethods: 900, Events: 1000);
            return new()
            {
                // everything there
                { new CapturedStacks(samples, waits, 0, 10, 1) { Contents = full }, null },
                // collected with --rundown false
                { new CapturedStacks(samples, waits, 0, 10, 1) { Contents = full with { RundownMethods = 0 } }, "rundown" },
                // without the WaitHandle keyword
                { new CapturedStacks(samples, [], 0, 10, 0) { Contents = full }, "wait events" },
                // no stack walks at all
                { new CapturedStacks(samples, waits, 0, 10, 1) { Contents = full with { EventsWithStacks = 0 } }, "stacks (the events were collected without stack walks)" },
            };
        }
    }

    [Theory]
    [MemberData(nameof(TraceContentsCases))]
    public void Missing_NamesEachGapInOneLine(CapturedStacks stacks, string? gap)
    {
        var line = TraceDiagnoser.Missing(stacks, new Version(10, 0, 12), hasPool: true);

        if (gap is null)
        {
            Assert.Null(line);
        }
        else
        {
            Assert.StartsWith("the trace lacks ", line, StringComparison.Ordinal);
            Assert.Contains(gap, line, StringComparison.Ordinal);
            Assert.DoesNotContain('\n', line!);
        }
    }

    [Fact]
    public void ProvidersArgument_QuotesValuesHoldingSeparators_AsDotnetTraceRequires()
    {
        var argument = TraceRecipe.ProvidersArgument();

        Assert.Contains("System.Runtime:0x0:4:EventCounterIntervalSec=1", argument, StringComparison.Ordinal);
        Assert.Single(TraceRecipe.Providers(), p => p.Name == "Microsoft-Windows-DotNETRuntime");
    }

    [DotnetTraceFact]
    public async Task DotnetTraceFile_GivesTheLiveDiagnosis_AndATruncatedCopyIsOneLineExit2()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-trace-");
        try
        {
            var trace = Path.Combine(dir.FullName, "sleep.nettrace");
            await using (var target = await TargetProcess.StartTargetAsync(new TargetOptions()))
            // 48 clients: the pool, growing a thread or two a second, stays far short of them for the whole trace (with 24
            // it had grown close enough by the trace's end, once on a busy machine, to read healthy).
            await using (var flood = Flood.Start(target.Url("/sleep?ms=500"), 48, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(15)))
            {
                await Task.Delay(TimeSpan.FromSeconds(1.5));
                var pid = target.ProcessId.ToString(CultureInfo.InvariantCulture);
                var (exit, output) = await Preconditions.RunToolAsync(Preconditions.DotnetTrace!, Limit,
                    "collect", "-p", pid, "--duration", "00:00:00:03", "--providers", TraceRecipe.ProvidersArgument(), "-o", trace);
                Assert.True(exit == 0 && File.Exists(trace), $"dotnet-trace exit {exit}: {output}");
            }

            using var doc = await SleepDiagnosis.AssertBlockedOnSleepAsync(Limit, "trace", "--trace", trace);

            var root = doc.RootElement;
            Assert.Equal("10", root.GetProperty("runtimeVersion").GetString()!.Split('.')[0]);
            Assert.Equal("trace", root.GetProperty("source").GetProperty("kind").GetString());
            Assert.Equal(JsonValueKind.Null, root.GetProperty("source").GetProperty("missing").ValueKind);
            // The pool, replayed from the trace's counters through the verdict rule: starving, or already draining
            // its queue by the end of the 3 s on a loaded machine (the pool keeps adding threads).
            var pool = root.GetProperty("pool");
            Assert.True(pool.GetProperty("verdict").GetString() is "starving" or "recovering", pool.ToString());
            Assert.True(pool.GetProperty("queuePeak").GetInt64() >= 10, pool.ToString());

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
            // The same chain, hop by hop, with the same files and lines: the trace keeps the IL-to-native maps the live read used.
            string Chain(JsonDocument d) => d.RootElement.GetProperty("culprits")[0].GetProperty("chain").ToString();
            Assert.Equal(Chain(liveDoc), Chain(offlineDoc));
            Assert.Contains("WaitController.cs", Chain(liveDoc), StringComparison.Ordinal);
            if (SchemaValidation.Folder is not null)
            {
                var livePath = Path.Combine(dir.FullName, "live.json");
                var tracePath = Path.Combine(dir.FullName, "trace.json");
                await File.WriteAllTextAsync(livePath, live);
                await File.WriteAllTextAsync(tracePath, offline);
                await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("diagnosis"), livePath, tracePath);
            }
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
    [InlineData(null, "no such file")]
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
