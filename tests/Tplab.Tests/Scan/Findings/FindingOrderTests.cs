using Tplab.Scan.Findings;

namespace Tplab.Tests.Scan.Findings;

/// <summary>The report's order: severity, then what runs on every request before what runs once, then request reach.</summary>
[Collection(ShopScanCollection.Name)]
public sealed class FindingOrderTests(ShopScan shop)
{
    [Fact]
    public void Analyse_ShopFixture_RunOnceSitesRankBelowRequestSitesOfTheSameSeverity()
    {
        var findings = shop.Result.Findings;
        Assert.Contains(findings, f => f.RunsOnce);
        foreach (var (before, after) in findings.Zip(findings.Skip(1)))
        {
            Assert.True(before.Severity >= after.Severity, $"{before.Id} before {after.Id}: severity");
            if (before.Severity == after.Severity)
            {
                Assert.True(!before.RunsOnce || after.RunsOnce, $"{before.Id} (runs once) before {after.Id} (every request)");
                if (before.RunsOnce == after.RunsOnce)
                {
                    Assert.True(before.RequestRoots >= after.RequestRoots, $"{before.Id} before {after.Id}: fewer request paths");
                }
            }
        }
    }
}
