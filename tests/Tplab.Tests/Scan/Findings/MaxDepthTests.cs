using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Output;

namespace Tplab.Tests.Scan.Findings;

/// <summary>
/// The depth bound (<c>--max-depth</c>): a walk stops at it, and the report says so once, with the bound and the option
/// that raises it, instead of cutting chains silently.
/// </summary>
[Collection(ShopScanCollection.Name)]
public sealed class MaxDepthTests(ShopScan shop)
{
    [Fact]
    public void Analyse_DefaultBound_NoWalkReachesIt()
    {
        Assert.Equal(ScanOptions.DefaultMaxDepth, shop.Result.MaxDepth);
        Assert.Equal(0, shop.Result.WalksAtMaxDepth);
        Assert.Null(shop.Result.MaxDepthLine);
    }

    [Fact]
    public void Analyse_BoundBelowTheChains_CutsThemAndSaysSoOnce()
    {
        var cut = shop.Analyse(maxDepth: 2);
        Assert.True(cut.WalksAtMaxDepth > 0, "a bound of 2 calls must cut some of the Shop's walks");
        Assert.True(cut.Findings.Count < shop.Result.Findings.Count, $"{cut.Findings.Count} findings at depth 2, {shop.Result.Findings.Count} at 40");
        Assert.All(cut.Findings, f => Assert.True(f.Chain.Count <= 3, $"{f.Id}: a chain of {f.Chain.Count} hops past a bound of 2 calls"));
        var line = $"depth bound: {cut.WalksAtMaxDepth} entry point(s) call deeper than 2 calls; the walk stopped there (--max-depth raises it, up to 200)";
        Assert.Equal(line, cut.MaxDepthLine);
        var text = new StringWriter();
        new ScanTextFormat().Write(cut, text);
        Assert.Single(text.ToString().Split('\n'), l => l == line);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(201)]
    public void Validated_BoundOutOfRange_UsageErrorNamingTheOption(int maxDepth)
    {
        var error = Assert.Throws<TplabException>(() => new ScanOptions { MaxDepth = maxDepth }.Validated());
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Equal($"--max-depth must be between 2 and 200 calls, got {maxDepth}", error.Message);
    }
}
