using Tplab.Common;
using Tplab.Lab;
using Tplab.Lab.Running;
using Tplab.Tests.Support;
using Xunit;

namespace Tplab.Tests.Lab;

[ParallelSafe]
public sealed class LabOptionsTests
{
    [Theory]
    [InlineData(249, false)]
    [InlineData(250, true)]
    [InlineData(500, true)]
    [InlineData(3_600_000, true)]
    [InlineData(3_600_001, false)]
    public void Interval_is_checked_by_the_library_not_only_the_cli(double ms, bool ok)
    {
        var options = new LabOptions { WatchInterval = TimeSpan.FromMilliseconds(ms) };
        if (ok)
        {
            Assert.Same(options, options.Validated());
            return;
        }
        var e = Assert.Throws<TplabException>(() => options.Validated());
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.StartsWith("--interval must be between 250ms and 1h", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_runner_refuses_bad_options_before_creating_a_results_folder()
    {
        var root = Path.Combine(Path.GetTempPath(), "tplab-labopts-" + Guid.NewGuid().ToString("N"));
        var options = new LabOptions { WatchInterval = TimeSpan.FromMilliseconds(10), ResultsRoot = root };
        var e = await Assert.ThrowsAsync<TplabException>(() => LabRunner.RunAsync(options, new NullLabObserver(), CancellationToken.None));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.False(Directory.Exists(root));
    }
}
