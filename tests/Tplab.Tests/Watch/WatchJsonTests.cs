using Tplab.Common;
using Tplab.Runtime;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Delay;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Watch;

/// <summary>The watch's JSONL records: written and read through the same types, every field, every verdict word.</summary>
[ParallelSafe]
public sealed class WatchJsonTests
{
    // Every field set to a value that survives the writer's rounding, so a round trip must give it back exactly.
    private static readonly ThreadPoolSample Sample = new(TimeSpan.FromSeconds(3.512), 7, 94, 2.5, 21, 3.3, 1.2, 120, PoolVerdict.LockContention,
        "queue 94 and rising, 2 of 3 pool threads wait for a lock, \"quoted\" → arrow")
    {
        Cores = 1.5,
        MachineCpuPercent = 97.5,
        LockWaiters = 2.4,
        RunnableWorkers = 0.7,
        ProcessId = 4242,
        Delay = new SchedulingDelay(12, 3.5, 1.25, 40.5, 41.5, 2, 3, 1500.5, 0.5),
    };

    private static readonly ThreadPoolInjection Injection = new(TimeSpan.FromSeconds(3.104), 8, InjectionReason.CooperativeBlocking, 8, 11.5) { ProcessId = 4242 };

    private static PoolTimeline Timeline() => new(4242, TimeSpan.FromMilliseconds(250), TimeSpan.FromSeconds(4.25), [Sample], [Injection],
        new MinMaxEvent(0, 40, 32767, 0, 0), processExited: true) { DelayNote = "scheduling delay not measured: test", StartedAt = new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.Zero) };

    private static T RoundTrip<T>(T line)
        where T : WatchLine
    {
        var text = JsonlWatchWriter.Line(line);
        Assert.DoesNotContain('\n', text);
        var read = JsonlWatchReader.Read(new StringReader(JsonlWatchWriter.Line(SampleLine.From(Sample)) + "\n" + text));
        return line switch
        {
            SampleLine => (T)(WatchLine)SampleLine.From(read.Samples[^1]),
            InjectionLine => (T)(WatchLine)InjectionLine.From(Assert.Single(read.Injections)),
            _ => (T)(WatchLine)SummaryLine.From(read),
        };
    }

    [Fact]
    public void Sample_EveryField_RoundTrips()
    {
        var line = SampleLine.From(Sample);
        JsonAssert.EveryFieldSet(line);

        Assert.Equal(line, RoundTrip(line));
        Assert.Equal(Sample, RoundTrip(line).ToSample());
    }

    [Fact]
    public void Injection_EveryField_RoundTrips()
    {
        var line = InjectionLine.From(Injection);
        JsonAssert.EveryFieldSet(line);

        Assert.Equal(line, RoundTrip(line));
        Assert.Equal(Injection, line.ToInjection());
    }

    [Fact]
    public void Summary_EveryField_RoundTrips()
    {
        var line = SummaryLine.From(Timeline()) with { FirstStarvingSeconds = 3.512 };
        JsonAssert.EveryFieldSet(line);
        var text = new StringWriter();
        JsonlWatchWriter.WriteTimeline(Timeline(), text);

        var read = JsonlWatchReader.Read(new StringReader(text.ToString()));

        var back = SummaryLine.From(read);
        Assert.Equal(line.InjectionsByReason, back.InjectionsByReason);
        Assert.Equal(line with { InjectionsByReason = back.InjectionsByReason }, back with { FirstStarvingSeconds = 3.512 });
        Assert.Equal((40, 32767), (read.Limits?.MinWorkerThreads, read.Limits?.MaxWorkerThreads));
        Assert.True(read.ProcessExited);
    }

    [Theory]
    [InlineData(PoolVerdict.Healthy, "healthy")]
    [InlineData(PoolVerdict.Starving, "starving")]
    [InlineData(PoolVerdict.Recovering, "recovering")]
    [InlineData(PoolVerdict.LockContention, "lock-contention")]
    [InlineData(PoolVerdict.CpuSaturated, "cpu-saturated")]
    public void Read_EveryVerdictTheWriterWrites_ComesBack(PoolVerdict verdict, string word)
    {
        var text = new StringWriter();
        JsonlWatchWriter.WriteTimeline(new PoolTimeline(1, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), [Sample with { Verdict = verdict }], [], null, false), text);
        Assert.Contains($"\"verdict\":\"{word}\"", text.ToString(), StringComparison.Ordinal);

        var read = JsonlWatchReader.Read(new StringReader(text.ToString()));

        Assert.Equal(verdict, Assert.Single(read.Samples).Verdict);
        Assert.Equal(word, verdict.ToWord());
    }

    [Theory]
    // A watch killed while writing: the last line stops anywhere, even inside a string or a number.
    [InlineData(1)]
    [InlineData(17)]
    [InlineData(60)]
    public void Read_AFileCutMidLine_ReadsUpToItsLastWholeLine(int keep)
    {
        var text = new StringWriter();
        JsonlWatchWriter.WriteTimeline(Timeline(), text);
        var lines = text.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var cut = string.Join('\n', lines[..^1]) + "\n" + lines[^1][..keep];

        var read = JsonlWatchReader.Read(new StringReader(cut));

        Assert.Equal(Sample, Assert.Single(read.Samples));
        Assert.Single(read.Injections);
        Assert.Equal(TimeSpan.Zero, read.Interval - read.Interval);
    }

    [Fact]
    public void Read_ABrokenLineBeforeTheLast_IsAUsageErrorNamingIt()
    {
        var good = JsonlWatchWriter.Line(SampleLine.From(Sample));

        var e = Assert.Throws<TplabException>(() => JsonlWatchReader.Read(new StringReader($"{good}\n{good[..30]}\n{good}\n")));

        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.StartsWith("line 2 is not a tplab watch record", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{\"type\":\"sample\",\"offsetSeconds\":1,\"threadCount\":2,\"queueLength\":0,\"completedPerSecond\":0,\"osThreads\":9,\"cpuPercent\":0,\"contentionsPerSecond\":0,\"verdict\":\"dozing\",\"evidence\":\"\"}", "dozing")]
    [InlineData("{\"type\":\"sample\",\"offsetSeconds\":\"1\"}", "offsetSeconds")]
    public void Read_ARecordWithABadValue_SaysWhichInOneLine(string line, string named)
    {
        var e = Assert.Throws<TplabException>(() => JsonlWatchReader.Read(new StringReader(line + "\n" + line + "\n")));

        Assert.Contains(named, e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Fact]
    public void Read_ALineOfATypeThisVersionDoesNotKnow_IsSkipped()
    {
        var text = JsonlWatchWriter.Line(SampleLine.From(Sample)) + "\n{\"type\":\"gc\",\"offsetSeconds\":1,\"heapMb\":12}\n";

        var read = JsonlWatchReader.Read(new StringReader(text));

        Assert.Single(read.Samples);
    }

    [Fact]
    public void Read_AWatchWrittenBeforeTheTypedSchema_KeepsEveryFieldAndWritesTheSameLines()
    {
        var path = Path.Combine(RepoPaths.Root, "tests", "Tplab.Tests", "Fixtures", "v1", "watch.jsonl");
        var original = File.ReadAllLines(path);

        var read = JsonlWatchReader.Read(new StringReader(File.ReadAllText(path)));
        var text = new StringWriter();
        JsonlWatchWriter.WriteTimeline(read, text);

        var again = text.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(original.Length, again.Length);
        for (var i = 0; i < original.Length; i++)
        {
            // Version 1 had no schemaVersion in its summary, nor the delay's estimate (derived from the queue and the
            // completions, so written with them again); everything else is written back as it was.
            JsonAssert.Equal(original[i], again[i], node => { node!.AsObject().Remove("schemaVersion"); node.AsObject().Remove("estimatedDelayMs"); return node; });
        }
        Assert.Contains(read.Samples, s => s.MachineCpuPercent is not null && s.Cores > 0 && s.LockWaiters is not null);
    }

    [SchemaFact]
    public async Task Schema_WatchesWrittenNowAndBefore_Validate()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-watch-schema-").FullName;
        try
        {
            var now = Path.Combine(folder, "now.jsonl");
            using (var writer = new StreamWriter(now))
            {
                JsonlWatchWriter.WriteTimeline(Timeline(), writer);
                JsonlWatchWriter.WriteTimeline(FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 10, 100).Timeline!, writer);
            }
            var before = Directory.GetFiles(Path.Combine(RepoPaths.Root, "tests", "Tplab.Tests", "Fixtures", "v1"), "*.jsonl", SearchOption.AllDirectories);

            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("watch"), [now, .. before]);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
