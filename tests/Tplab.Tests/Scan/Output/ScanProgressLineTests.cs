using Tplab.Scan.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Output;

/// <summary>scan's progress on stderr: in place on a terminal; in a log, the status as a line every few seconds (a clock the test sets).</summary>
[ParallelSafe]
public sealed class ScanProgressLineTests
{
    [Fact]
    public void Status_NotATerminal_IsALineEveryFewSecondsAndLinesAlways()
    {
        var now = 0L;
        var error = new StringWriter();
        var progress = new ScanProgressLine(error, interactive: false, () => now);

        progress.Status("following calls: 1/700 entry points");
        now = 1_000;
        progress.Status("following calls: 20/700 entry points");
        progress.Line("tplab scan: skipped Bad: MSBuild could not load it");
        now = ScanProgressLine.EverySeconds * 1000 + 1;
        progress.Status("following calls: 300/700 entry points");
        now += 1_000;
        progress.Status("following calls: 400/700 entry points");
        now += ScanProgressLine.EverySeconds * 1000;
        progress.Status("");
        progress.Status("writing chains: 10/240 entry points");

        Assert.Equal(
            ["tplab scan: skipped Bad: MSBuild could not load it", "tplab scan: following calls: 300/700 entry points", "tplab scan: writing chains: 10/240 entry points"],
            error.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.DoesNotContain("\r", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Status_OnATerminal_IsRewrittenInPlaceAndClearedByALine()
    {
        var error = new StringWriter();
        var progress = new ScanProgressLine(error, interactive: true, () => 0);

        progress.Status("loading projects: 1/3");
        progress.Line("tplab scan: restoring");

        Assert.Equal("tplab scan: loading projects: 1/3\r\u001b[Ktplab scan: restoring" + Environment.NewLine, error.ToString());
    }
}
