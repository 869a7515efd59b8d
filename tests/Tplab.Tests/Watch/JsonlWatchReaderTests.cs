using Tplab.Common;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Output;

namespace Tplab.Tests.Watch;

/// <summary>A saved watch read back (tplab watch --from FILE.jsonl): the same samples, injections and summary as were written.</summary>
[ParallelSafe]
public sealed class JsonlWatchReaderTests
{
    private static PoolTimeline Saved() => FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 10, 100).Timeline!;

    [Fact]
    public void Read_WhatTheJsonlWriterWrote_GivesTheSameTimeline()
    {
        var original = Saved();
        var text = new StringWriter();
        JsonlWatchWriter.WriteTimeline(original, text);

        var read = JsonlWatchReader.Read(new StringReader(text.ToString()));

        Assert.Equal(original.ProcessId, read.ProcessId);
        Assert.Equal(original.Interval, read.Interval);
        Assert.Equal(original.Samples.Select(s => (s.Offset, s.ThreadCount, s.QueueLength, s.OsThreads, s.Verdict)), read.Samples.Select(s => (s.Offset, s.ThreadCount, s.QueueLength, s.OsThreads, s.Verdict)));
        Assert.Equal(original.Injections.Select(i => (i.Offset, i.NewThreadCount, i.ReasonName)), read.Injections.Select(i => (i.Offset, i.NewThreadCount, i.ReasonName)));
        Assert.Equal((original.Verdict, original.ThreadsPeak, original.QueuePeak), (read.Verdict, read.ThreadsPeak, read.QueuePeak));
    }

    [Fact]
    public void Read_AFileCutShort_KeepsItsWholeLines()
    {
        var text = new StringWriter();
        JsonlWatchWriter.WriteTimeline(Saved(), text);
        var lines = text.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);

        var read = JsonlWatchReader.Read(new StringReader(string.Join('\n', lines.Take(5))));

        Assert.Equal(lines.Take(5).Count(l => l.Contains("\"type\":\"sample\"", StringComparison.Ordinal)), read.Samples.Count);
    }

    [Theory]
    [InlineData("not json")]
    [InlineData("{\"type\":\"sample\"}")]
    [InlineData("")]
    public void Read_NotAWatchFile_IsAUsageErrorNamingTheProblem(string content)
    {
        var e = Assert.Throws<TplabException>(() => JsonlWatchReader.Read(new StringReader(content)));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
    }
}
