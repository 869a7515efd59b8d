using Tplab.Common;
using Tplab.Watch.Running;
using Tplab.Diagnose.OnStarving;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>The library's checks of a watch run (the CLI only binds): one target, a known format, live only on the terminal.</summary>
[ParallelSafe]
public sealed class WatchRunOptionsTests
{
    public static TheoryData<WatchRunOptions, string> BadOptions => new()
    {
        { new WatchRunOptions(), "watch needs one of" },
        { new WatchRunOptions { ProcessId = 1, Name = "api" }, "watch needs one of" },
        { new WatchRunOptions { ProcessId = 1, Format = "xml" }, "--format must be one of live, jsonl, csv" },
        { new WatchRunOptions { ProcessId = 1, Format = "live", Output = "w.jsonl" }, "--format live draws on the terminal" },
        { new WatchRunOptions { ProcessId = 1, Format = "jsonl", Duration = TimeSpan.Zero }, "--duration must be more than zero" },
    };

    [Theory]
    [MemberData(nameof(BadOptions))]
    public void Validated_BadOptions_AreUsageErrors(WatchRunOptions options, string message)
    {
        var error = Assert.Throws<TplabException>(options.Validated);

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FileFor_LaterEpisodes_GetANumberBeforeTheExtension()
    {
        var options = new StarvingDiagnosisOptions { Output = "out/d.json" };

        Assert.Equal("out/d.json", options.FileFor(42, 1, DateTimeOffset.UnixEpoch));
        Assert.Equal("out/d-3.json", options.FileFor(42, 3, DateTimeOffset.UnixEpoch));
        Assert.Equal("tplab-diagnosis-42-19700101-000000.json", new StarvingDiagnosisOptions().FileFor(42, 1, DateTimeOffset.UnixEpoch));
    }
}
