using System.Globalization;
using System.Text.RegularExpressions;
using Tplab.Tests.Support;

namespace Tplab.Tests.Reports;

/// <summary>
/// `tplab load` against the real target, which stamps Server-Timing: the text output splits each request's time and
/// the html page opens in Chromium with the same split, summing to the latency.
/// </summary>
public sealed partial class LoadReportEndToEndTests(TargetFixture fixture) : IClassFixture<TargetFixture>, IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-load-report-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [GeneratedRegex(@"Split \(mean\)  waited for a thread ([\d.]+) \+ handler ([\d.]+) \+ rest ([\d.]+) = ([\d.]+) ms \((\d+) of (\d+) requests")]
    private static partial Regex SplitLine();

    [Fact]
    public async Task Load_WithTheHandlerStamp_PrintsTheSplit_AndWritesAPageThatShowsIt()
    {
        var html = Path.Combine(_folder, "load.html");
        var (code, stdout, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(1),
            "load", fixture.Url("/sleep?ms=300").ToString(), "-n", "12", "-c", "12", "--format", "text,html", "--output", "-", "--output", html);
        Assert.True(code == 0, $"exit {code}: {stderr}");

        var m = SplitLine().Match(stdout);
        Assert.True(m.Success, stdout);
        double N(int group) => double.Parse(m.Groups[group].Value, CultureInfo.InvariantCulture);
        Assert.InRange(N(1) + N(2) + N(3), N(4) - 0.02, N(4) + 0.02);
        // The handler slept 300 ms in every request (timers may end a millisecond early); every response had the stamp.
        Assert.True(N(2) >= 299, $"handler mean {N(2)} ms");
        Assert.Equal(("12", "12"), (m.Groups[5].Value, m.Groups[6].Value));

        var view = await Browser.OpenAsync(html, Path.Combine(RepoPaths.Artifacts("screenshots"), "report-load-e2e.png"));
        HtmlReportTests.AssertReadable(view);
        var split = Assert.Single(view.Splits);
        Assert.InRange(split.Latency, N(4) - 0.01, N(4) + 0.01);
    }
}
