using System.Text.Json;
using Tplab.Scan.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Output;

/// <summary>The three formats on the Shop fixture's scan: JSON and SARIF valid against their schemas, text grouped by endpoint.</summary>
[Collection(ShopScanCollection.Name)]
public sealed class ScanFormatsTests(ShopScan shop)
{
    [Theory]
    [InlineData(null, null, "text")]
    [InlineData(null, "out.json", "json")]
    [InlineData(null, "scan.sarif", "sarif")]
    [InlineData(null, "report.txt", "text")]
    [InlineData("json", "out.sarif", "json")]
    [InlineData("SARIF", null, "sarif")]
    public void For_FormatOrExtension_PicksTheFormat(string? format, string? output, string expected) =>
        Assert.Equal(expected, ScanFormats.For(format, output).Name);

    [Fact]
    public void Find_UnknownFormat_IsAUsageErrorNamingTheKnownOnes()
    {
        var error = Assert.Throws<Tplab.Common.TplabException>(() => ScanFormats.Find("xml"));
        Assert.Equal("--format must be one of text, json, sarif, got 'xml'", error.Message);
    }

    [Fact]
    public void Schema_PlaceAndKindWords_AreTheSharedLists()
    {
        using var schema = JsonDocument.Parse(File.ReadAllText(SchemaValidation.SchemaOf("scan")));
        var finding = schema.RootElement.GetProperty("$defs").GetProperty("finding").GetProperty("properties");
        Assert.Equal(Tplab.Blocking.PlaceWords.All.Select(Tplab.Blocking.PlaceWords.Id).Order(),
            finding.GetProperty("place").GetProperty("enum").EnumerateArray().Select(e => e.GetString()!).Order());
        Assert.Equal(Enum.GetValues<Tplab.Blocking.BlockingKind>().Select(Tplab.Blocking.PlaceWords.KindId).Order(),
            finding.GetProperty("blockingKind").GetProperty("enum").EnumerateArray().Select(e => e.GetString()!).Order());
    }

    [SchemaFact]
    public async Task Json_ShopScan_IsValidAgainstItsSchema()
    {
        var path = Write(new ScanJsonFormat(), ".json");
        try
        {
            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("scan"), path);
            using var doc = JsonDocument.Parse(File.ReadAllText(path));
            var entryPoints = doc.RootElement.GetProperty("entryPoints").EnumerateArray().ToList();
            var daily = entryPoints.FindIndex(e => e.GetProperty("key").GetString() == "GET /api/reports/daily");
            Assert.Equal("GET", entryPoints[daily].GetProperty("endpoint").GetProperty("method").GetString());
            Assert.Equal("/api/reports/daily", entryPoints[daily].GetProperty("endpoint").GetProperty("route").GetString());
            Assert.Equal("minimal-api", entryPoints[daily].GetProperty("place").GetString());
            var findings = doc.RootElement.GetProperty("findings").EnumerateArray().ToList();
            // One finding per site: no two with the same id; the site names its entry points by index, the worst first.
            Assert.Equal(findings.Count, findings.Select(f => f.GetProperty("id").GetString()).Distinct().Count());
            var finding = findings.Single(f => f.GetProperty("roots").EnumerateArray().Any(i => i.GetInt32() == daily) && f.GetProperty("blockingCall").GetString() == "Thread.Sleep");
            Assert.Equal("Shop.Data.Throttle.Wait", finding.GetProperty("userFrame").GetString());
            Assert.Equal("error", finding.GetProperty("severity").GetString());
            Assert.Equal(finding.GetProperty("rootCount").GetInt32(), finding.GetProperty("roots").GetArrayLength());
            Assert.Equal(finding.GetProperty("root").GetString(), entryPoints[finding.GetProperty("roots")[0].GetInt32()].GetProperty("key").GetString());
            Assert.True(Tplab.Scan.Findings.FindingId.IsWellFormed(finding.GetProperty("id").GetString()!));
            Assert.Equal(shop.Result.Findings.Count, doc.RootElement.GetProperty("summary").GetProperty("sites").GetInt32());
        }
        finally
        {
            File.Delete(path);
        }
    }

    [SchemaFact]
    public async Task Sarif_ShopScan_IsValidSarif210WithACodeFlowPerFinding()
    {
        var path = Write(new SarifFormat(), ".sarif");
        try
        {
            await SchemaValidation.AssertValidAsync("sarif", path);
            using var doc = JsonDocument.Parse(File.ReadAllText(path));
            var run = doc.RootElement.GetProperty("runs")[0];
            var results = run.GetProperty("results").EnumerateArray().ToList();
            Assert.Equal(shop.Result.Findings.Count + shop.Result.Suppressed.Count, results.Count);
            Assert.All(results, r => Assert.True(r.GetProperty("codeFlows")[0].GetProperty("threadFlows")[0].GetProperty("locations").GetArrayLength() >= 1));
            Assert.All(results, r => Assert.InRange(r.GetProperty("codeFlows").GetArrayLength(), 1, 1 + Tplab.Scan.Findings.FindingBuilder.OtherChains));
            Assert.All(results, r => Assert.InRange(r.GetProperty("relatedLocations").GetArrayLength(), 1, SarifFormat.MaxRelatedLocations));
            Assert.All(results, r => Assert.True(Tplab.Scan.Findings.FindingId.IsWellFormed(r.GetProperty("partialFingerprints").GetProperty("tplabFinding/v3").GetString()!)));
            var suppressed = results.Single(r => r.TryGetProperty("suppressions", out _));
            Assert.Equal("inSource", suppressed.GetProperty("suppressions")[0].GetProperty("kind").GetString());
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Text_ShopScan_SummaryThenEachSiteOnceWorstFirstWithTheChainAndFix()
    {
        var writer = new StringWriter();
        new ScanTextFormat().Write(shop.Result, writer);
        var text = writer.ToString();
        var lines = text.Split('\n');
        // The header (wrapped when long), then the summary.
        Assert.StartsWith("tplab scan: ", lines[0], StringComparison.Ordinal);
        var summary = Array.FindIndex(lines, l => l.StartsWith("findings: ", StringComparison.Ordinal));
        Assert.StartsWith($"findings: {shop.Result.Findings.Count} blocking site(s): ", lines[summary], StringComparison.Ordinal);
        Assert.StartsWith("by kind: ", lines[summary + 1], StringComparison.Ordinal);
        Assert.Contains("entry point(s) reach them; most sites: ", lines[summary + 2], StringComparison.Ordinal);
        Assert.Contains("Shop.Data/Stock.cs:", text, StringComparison.Ordinal);
        Assert.Contains("<- Thread.Sleep", text, StringComparison.Ordinal);
        Assert.Contains("  fix: ", text, StringComparison.Ordinal);
        Assert.Contains("1 ignored inline", text, StringComparison.Ordinal);
        // Each site once, with its id; errors before warnings before notes.
        var heads = lines.Where(l => l.StartsWith("ERROR", StringComparison.Ordinal) || l.StartsWith("WARNING", StringComparison.Ordinal) || l.StartsWith("NOTE", StringComparison.Ordinal)).ToList();
        Assert.Equal(shop.Result.Findings.Count, heads.Count);
        Assert.All(shop.Result.Findings, f => Assert.Single(heads, h => h.Contains(f.Id, StringComparison.Ordinal)));
        Assert.Equal(heads.OrderBy(h => h.StartsWith("ERROR", StringComparison.Ordinal) ? 0 : h.StartsWith("WARNING", StringComparison.Ordinal) ? 1 : 2), heads);
    }

    [Theory]
    [InlineData(Tplab.Scan.ScanGrouping.Site, null)]
    [InlineData(Tplab.Scan.ScanGrouping.Endpoint, null)]
    [InlineData(Tplab.Scan.ScanGrouping.Site, 3)]
    [InlineData(Tplab.Scan.ScanGrouping.Endpoint, 3)]
    public void Text_EveryGrouping_NoLineWiderThan120Columns(Tplab.Scan.ScanGrouping grouping, int? top)
    {
        var writer = new StringWriter();
        new ScanTextFormat { GroupBy = grouping, Top = top }.Write(shop.Result, writer);

        var lines = writer.ToString().Split('\n').Select(l => l.TrimEnd('\r')).ToList();
        Assert.True(lines.Count > 8, "too few lines to judge: " + lines.Count);
        Assert.All(lines, l => Assert.True(l.Length <= 120, $"{l.Length} columns: {l}"));
    }

    [Fact]
    public void Text_GroupByEndpointAndTop_ListsEntryPointsWithTheirSitesThenSaysWhatIsLeft()
    {
        var writer = new StringWriter();
        new ScanTextFormat { GroupBy = Tplab.Scan.ScanGrouping.Endpoint }.Write(shop.Result, writer);
        var text = writer.ToString();
        Assert.Contains("GET /api/reports/daily  (minimal API endpoint", text, StringComparison.Ordinal);
        Assert.Contains("middleware AdminAuditMiddleware.InvokeAsync, every request to /admin passes it", text, StringComparison.Ordinal);

        var top = new StringWriter();
        new ScanTextFormat { Top = 2 }.Write(shop.Result, top);
        Assert.Equal(2, top.ToString().Split('\n').Count(l => l.StartsWith("ERROR", StringComparison.Ordinal) || l.StartsWith("WARNING", StringComparison.Ordinal)));
        Assert.Contains($"{shop.Result.Findings.Count - 2} more site(s) not shown (--top)", top.ToString(), StringComparison.Ordinal);
    }

    private string Write(IScanFormat format, string extension)
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-scan-{Guid.NewGuid():N}{extension}");
        Tplab.Common.AtomicFile.Write(path, w => format.Write(shop.Result, w));
        return path;
    }
}
