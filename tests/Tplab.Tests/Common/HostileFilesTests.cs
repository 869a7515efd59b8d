using Tplab.Common;
using Tplab.Lab.Comparing;
using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Watch.Output;

namespace Tplab.Tests.Common;

/// <summary>
/// Files that once gave internal errors (issue 28): each is read (a list that is null is the empty list) or refused in
/// one line naming the field, exit 2; never a NullReferenceException, an OverflowException or a CLR name.
/// </summary>
public sealed class HostileFilesTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-hostile-files-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private string File(string name, string text)
    {
        var path = Path.Combine(_folder, name);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        System.IO.File.WriteAllText(path, text);
        return path;
    }

    private static void Refused(Action read, string expected)
    {
        var error = Assert.Throws<TplabException>(read);
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Compare_SummaryWithNullScenarios_ReadsAsNoScenario()
    {
        var file = ResultsFile.Read(File("a/summary.json", """{"schemaVersion": 1, "scenarios": null}"""));

        Assert.Empty(file.Scenarios);
    }

    [Fact]
    public void Compare_SummaryWithANullScenario_IsRefusedNamingIt() =>
        Refused(() => ResultsFile.Read(File("b/summary.json", """{"schemaVersion": 1, "scenarios": [null]}""")), "scenarios[0]: null where a value is required");

    [Theory]
    [InlineData("""{"schema": 1, "blockingCalls": [null]}""", "blockingCalls[0]: null")]
    [InlineData("""{"schema": 1, "blokingCalls": []}""", "blokingCalls: unknown field")]
    [InlineData("""{"schema": 1, "blockingCalls": [{"type": "A.B", "methods": [null], "kind": "sleep"}]}""", "blockingCalls[0].methods[0]: null")]
    public void ScanConfig_NullsAndMisspeltKeys_RefusedNamingTheField(string text, string expected) =>
        Refused(() => ScanConfig.Read(File("tplab-scan.json", text)), expected);

    [Fact]
    public void ScanConfig_NullList_IsNoCall() =>
        Assert.Empty(ScanConfig.Read(File("c.json", """{"schema": 1, "blockingCalls": null}""")).BlockingCalls);

    [Theory]
    [InlineData("""{"schema": 1, "findings": [null]}""", "findings[0]: null")]
    public void Baseline_NullEntry_RefusedNamingIt(string text, string expected) =>
        Refused(() => Baseline.Read(File("baseline.json", text)), expected);

    [Theory]
    [InlineData("offsetSeconds", "1e300")]
    [InlineData("offsetSeconds", "-1")]
    [InlineData("intervalSeconds", "1e300")]
    [InlineData("durationSeconds", "1e300")]
    public void WatchFrom_HugeOrNegativeSeconds_RefusedNamingTheLine(string field, string value)
    {
        var sample = """{"type":"sample","offsetSeconds":1.0,"threadCount":9,"queueLength":22,"completedPerSecond":6,"osThreads":28,"cpuPercent":4.9,"contentionsPerSecond":0,"verdict":"starving","evidence":"q"}""";
        var summary = """{"type":"summary","processId":1,"intervalSeconds":1,"durationSeconds":2,"samples":1,"threadsStart":9,"threadsPeak":9,"osThreadsPeak":28,"queuePeak":22,"injectionsByReason":{},"processExited":false,"verdict":"starving","evidence":"q"}""";
        var text = string.Join('\n', sample, summary).Replace($"\"{field}\":", $"\"{field}\":{value},\"x{field}\":", StringComparison.Ordinal) + "\n";

        var error = Assert.Throws<TplabException>(() => JsonlWatchReader.Read(new StringReader(text)));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(field, error.Message, StringComparison.Ordinal);
        Assert.StartsWith("line ", error.Message, StringComparison.Ordinal);
    }
}
