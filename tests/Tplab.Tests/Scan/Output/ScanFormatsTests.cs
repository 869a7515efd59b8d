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
            var finding = doc.RootElement.GetProperty("findings").EnumerateArray()
                .First(f => f.GetProperty("root").GetString() == "GET /api/reports/daily");
            Assert.Equal("GET", finding.GetProperty("endpoint").GetProperty("method").GetString());
            Assert.Equal("/api/reports/daily", finding.GetProperty("endpoint").GetProperty("route").GetString());
            Assert.Equal("minimal-api", finding.GetProperty("place").GetString());
            Assert.Equal("Shop.Data.Throttle.Wait", finding.GetProperty("userFrame").GetString());
            Assert.Equal("Thread.Sleep", finding.GetProperty("blockingCall").GetString());
            Assert.Equal("error", finding.GetProperty("severity").GetString());
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
            var suppressed = results.Single(r => r.TryGetProperty("suppressions", out _));
            Assert.Equal("inSource", suppressed.GetProperty("suppressions")[0].GetProperty("kind").GetString());
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Text_ShopScan_GroupsByEndpointWithTheChainAndFix()
    {
        var writer = new StringWriter();
        new ScanTextFormat().Write(shop.Result, writer);
        var text = writer.ToString();
        Assert.Contains("GET /api/reports/daily  (minimal API endpoint", text, StringComparison.Ordinal);
        Assert.Contains("Shop.Data/Stock.cs:", text, StringComparison.Ordinal);
        Assert.Contains("<- Thread.Sleep", text, StringComparison.Ordinal);
        Assert.Contains("fix: ", text, StringComparison.Ordinal);
        Assert.Contains("middleware AdminAuditMiddleware.InvokeAsync, every request to /admin passes it", text, StringComparison.Ordinal);
        Assert.Contains("1 ignored inline", text, StringComparison.Ordinal);
    }

    private string Write(IScanFormat format, string extension)
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-scan-{Guid.NewGuid():N}{extension}");
        Tplab.Common.AtomicFile.Write(path, w => format.Write(shop.Result, w));
        return path;
    }
}
