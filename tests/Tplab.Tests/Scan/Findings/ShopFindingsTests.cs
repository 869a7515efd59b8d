using Tplab.Scan.Config;
using Tplab.Scan.Findings;

namespace Tplab.Tests.Scan.Findings;

/// <summary>What a correct scan of the Shop fixture reports, entry point by entry point, and what it must not report.</summary>
[Collection(ShopScanCollection.Name)]
public sealed class ShopFindingsTests(ShopScan shop)
{
    [Theory]
    // On every request through the path: errors.
    [InlineData("GET /api/reports/daily", "Shop.Data.Throttle.Wait", "Thread.Sleep", Severity.Error)]
    [InlineData("GET /api/orders/{id:int}/lines", "Shop.Web.Services.OrderService.LinesOf", "Enumerable.ToList", Severity.Error)]
    [InlineData("POST /api/orders", "Shop.Web.Services.OrderService.SaveAsync", "DbContext.SaveChanges", Severity.Error)]
    [InlineData("GET /offload-db", "Shop.Web.Endpoints.ShopApi.MapShopApi", "NpgsqlDataSource.OpenConnection", Severity.Error)]
    [InlineData("GET /reprice", "Shop.Web.Services.PriceService.RepriceAll", "Parallel.For", Severity.Error)]
    [InlineData("GET /recalculate", "Shop.Web.Services.Journal.Write", "File.AppendAllText", Severity.Error)]
    [InlineData("POST /upload", "Shop.Web.Services.Upload.Read", "StreamReader.ReadToEnd", Severity.Error)]
    [InlineData("GET /soap", "Shop.Web.Endpoints.ShopApi.MapShopApi", "SoapClient.Call", Severity.Error)]
    [InlineData("GET /api/Invoices/{id:int}", "Shop.Web.Controllers.InvoicesController.Get", "Task.Result", Severity.Error)]
    [InlineData("GET /api/Invoices/{id:int}", "Shop.Web.Controllers.GetInvoiceTotalHandler.Handle", "HttpClient.Send", Severity.Error)]
    [InlineData("ANY /Admin/Users/List", "Shop.Web.Controllers.UsersController.List", "Thread.Sleep", Severity.Error)]
    [InlineData("POST /Home/Contact/{id?}", "Shop.Web.Controllers.HomeController.Contact", "Process.WaitForExit", Severity.Error)]
    [InlineData("GET /clock", "Shop.Web.Infrastructure.Clock.OnInitialized", "Thread.Sleep", Severity.Error)]
    [InlineData("GET /healthz", "Shop.Web.Infrastructure.DatabaseHealthCheck.CheckHealthAsync", "NpgsqlConnection.Open", Severity.Error)]
    [InlineData("hub Shop.Web.Infrastructure.ChatHub.Send", "Shop.Web.Infrastructure.ChatHub.Send", "ManualResetEventSlim.Wait", Severity.Error)]
    [InlineData("middleware Program.Main", "Shop.Web.Infrastructure.FeatureFlags.Refresh", "Task.Wait", Severity.Error)]
    [InlineData("middleware Shop.Web.Infrastructure.RequestLogMiddleware.InvokeAsync", "Shop.Web.Infrastructure.RequestLogMiddleware.InvokeAsync", "StreamWriter.WriteLine", Severity.Error)]
    [InlineData("middleware Shop.Web.Infrastructure.AdminAuditMiddleware.InvokeAsync", "Shop.Web.Infrastructure.AuditTrail.Record", "GetAwaiter().GetResult()", Severity.Error)]
    [InlineData("filter Shop.Web.Controllers.AuditFilter.OnActionExecutionAsync", "Shop.Web.Controllers.AuditFilter.OnActionExecutionAsync", "SemaphoreSlim.Wait", Severity.Error)]
    [InlineData("delegating-handler Shop.Web.Infrastructure.SigningHandler.SendAsync", "Shop.Web.Infrastructure.SigningHandler.SendAsync", "Task.Result", Severity.Error)]
    [InlineData("view-component Shop.Web.Infrastructure.CartSummaryViewComponent.Invoke", "Shop.Web.Infrastructure.CartSummaryViewComponent.Invoke", "File.ReadAllLines", Severity.Error)]
    [InlineData("authorization-handler Shop.Web.Infrastructure.RegionHandler.HandleRequirementAsync", "Shop.Web.Infrastructure.RegionHandler.HandleRequirementAsync", "Thread.Sleep", Severity.Error)]
    // Conditional or uncertain: warnings.
    [InlineData("GET /api/orders/{id:int}", "Shop.Data.FileStockStore.Count", "File.ReadAllText", Severity.Warning)]
    [InlineData("GET /branch/{id:int}", "Shop.Web.Services.Branchy.Get", "Thread.Sleep", Severity.Warning)]
    [InlineData("GET /cache/{key}", "Shop.Web.Services.SlowCache.Get", "lock (Monitor.Enter)", Severity.Warning)]
    [InlineData("GET /rates/{currency}", "Shop.Web.Services.RatesLoader.Load", "GetAwaiter().GetResult()", Severity.Warning)]
    [InlineData("di-factory IRatesProvider", "Shop.Web.Services.RatesLoader.Load", "GetAwaiter().GetResult()", Severity.Warning)]
    [InlineData("hosted-service Shop.Web.Services.CacheRefresher.ExecuteAsync", "Shop.Web.Services.SlowCache.Rebuild", "Thread.Sleep", Severity.Warning)]
    [InlineData("hosted-service Shop.Web.Services.CatalogWarmer.StartAsync", "Shop.Web.Services.CatalogWarmer.StartAsync", "File.ReadAllBytes", Severity.Warning)]
    [InlineData("timer Shop.Web.Services.Flusher..ctor", "Shop.Web.Services.Flusher.Flush", "File.WriteAllText", Severity.Warning)]
    [InlineData("timer Shop.Web.Services.PartnerPoller.PollAsync", "Shop.Web.Services.PartnerPoller.PollAsync", "Thread.Sleep", Severity.Warning)]
    // Waste that holds no thread: a note.
    [InlineData("GET /offload", "Shop.Web.Endpoints.ShopApi.MapShopApi", "Task.Run", Severity.Note)]
    public void Analyse_ShopSolution_ReportsFinding(string root, string userFrame, string blockingCall, Severity severity)
    {
        var finding = shop.Result.Findings.FirstOrDefault(f => f.UserFrame == userFrame && f.Call.Name == blockingCall && f.Roots.Any(r => r.Root.Key == root));
        Assert.True(finding is not null,
            $"no {blockingCall} in {userFrame} from {root}; found there: {string.Join("; ", shop.Result.Findings.Where(f => f.Roots.Any(r => r.Root.Key == root)).Select(f => $"{f.Call.Name} in {f.UserFrame}"))}");
        // The severity from that entry point; the site's is the worst over its entry points.
        Assert.Equal(severity, finding.Roots.Single(r => r.Root.Key == root).Severity);
        Assert.Equal(finding.Roots.Max(r => r.Severity), finding.Severity);
        Assert.Equal(finding.Severity, finding.Roots[0].Severity);
        Assert.Equal(finding.Root, finding.Roots[0].Root);
        Assert.False(string.IsNullOrWhiteSpace(finding.Advice));
    }

    [Theory]
    // Proven complete tasks: after await Task.WhenAll, Task.FromResult, under an IsCompletedSuccessfully guard.
    [InlineData("GET /quotes/cheapest")]
    [InlineData("GET /quotes/known")]
    [InlineData("GET /quotes/fast")]
    // In memory: AsQueryable over an array, a MemoryStream, a lock that only touches memory.
    [InlineData("GET /memory")]
    [InlineData("GET /buffer")]
    [InlineData("GET /counter")]
    // Async all the way.
    [InlineData("GET /api/orders/{id:int}/lines-async")]
    [InlineData("GET /absolute/invoices")]
    [InlineData("POST /Orders/Details/{id:int}?handler=Cancel")]
    [InlineData("GET /ping")]
    // Ignored inline with a reason.
    [InlineData("GET /legacy")]
    public void Analyse_HarmlessEndpoint_ReportsNothing(string root) =>
        Assert.DoesNotContain(shop.Result.Findings, f => f.Roots.Any(r => r.Root.Key == root));

    [Fact]
    public void Analyse_BlockingInMainBeforeTheHostStarts_IsNotReported() =>
        Assert.DoesNotContain(shop.Result.Findings.Concat(shop.Result.Suppressed), f => f.Site.File == "Shop.Web/Program.cs");

    [Fact]
    public void Analyse_OneImplementationOfTwo_ChainNamesEachHopWithFileAndLine()
    {
        var finding = shop.Result.Findings.Single(f => f.Roots.Any(r => r.Root.Key == "GET /api/orders/{id:int}") && f.Call.Name == "File.ReadAllText");
        // The site's chain is its worst entry point's; this one's is rebuilt on demand, for the same site.
        var own = Assert.Single(shop.From("GET /api/orders/{id:int}"), f => f.Id == finding.Id);
        var (chain, reasons) = (own.Chain, own.Reasons);
        Assert.Equal(Severity.Warning, own.Severity);
        Assert.Equal(
            ["Shop.Web.Endpoints.OrderEndpoints.GetOrder", "Shop.Web.Services.OrderService.Load", "Shop.Data.FileStockStore.Count"],
            chain.Select(h => h.Method));
        Assert.Equal(["Shop.Web/Endpoints/OrderEndpoints.cs", "Shop.Web/Services/Orders.cs", "Shop.Data/Stock.cs"], chain.Select(h => h.File));
        Assert.Equal("one of 2 implementations of IStockStore.Count (registered in DI)", chain[2].Via);
        Assert.Contains(reasons, r => r.Contains("one of 2 implementations", StringComparison.Ordinal));
        var source = File.ReadAllLines(Path.Combine(ShopScan.Folder, chain[2].File));
        Assert.Contains("File.ReadAllText", source[chain[2].Line - 1], StringComparison.Ordinal);
        Assert.Contains("stock.Count", File.ReadAllLines(Path.Combine(ShopScan.Folder, chain[1].File))[chain[1].Line - 1], StringComparison.Ordinal);
    }

    [Fact]
    public void Analyse_SiteReachedFromSeveralEntryPoints_IsOneFindingNamingEachOnce()
    {
        var all = shop.Result.Findings.Concat(shop.Result.Suppressed).ToList();
        // One finding per site: no two at the same place for the same call, no two with the same id.
        Assert.Equal(all.Count, all.Select(f => (f.Site.File, f.Site.Line, f.Site.Column, f.Call.Name)).Distinct().Count());
        Assert.Equal(all.Count, all.Select(f => f.Id).Distinct().Count());
        Assert.All(all, f => Assert.Equal(f.Roots.Count, f.Roots.Select(r => r.Root.Key).Distinct().Count()));
        // Worst first, then nearest; the chain shown is the first root's, and as long as its depth.
        Assert.All(all, f => Assert.Equal(f.Roots.OrderByDescending(r => r.Severity).ThenBy(r => r.Depth).Select(r => (r.Severity, r.Depth)), f.Roots.Select(r => (r.Severity, r.Depth))));
        Assert.All(all, f => Assert.Equal(f.Roots[0].Depth + 1, f.Chain.Count));
        var shared = shop.Result.Findings.Single(f => f.Call.Name == "File.ReadAllText" && f.UserFrame == "Shop.Data.FileStockStore.Count");
        Assert.True(shared.Roots.Count >= 2, "FileStockStore.Count is reached from more than one endpoint: " + string.Join(", ", shared.Roots.Select(r => r.Root.Key)));
        Assert.Contains(shared.Roots, r => r.Root.Key == "GET /api/orders/{id:int}" && r.Severity == Severity.Warning);
    }

    [Fact]
    public void Analyse_TplabIgnoreComment_SuppressesWithItsReason()
    {
        var ignored = Assert.Single(shop.Result.Suppressed);
        Assert.Equal("GET /legacy", ignored.Root.Key);
        Assert.Equal("a 10 ms pause the vendor requires, measured harmless", ignored.Suppression);
    }

    [Fact]
    public void Analyse_WithoutTheConfigFile_DoesNotKnowTheTeamsBlockingApi() =>
        Assert.DoesNotContain(shop.Analyse(new ScanConfig()).Findings, f => f.Call.Name == "SoapClient.Call");

    [Fact]
    public void Analyse_WithABaselineOfEveryFinding_CountsNoneForFailOn()
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-baseline-{Guid.NewGuid():N}.json");
        try
        {
            Tplab.Common.AtomicFile.Write(path, Baseline.Of(shop.Result.Findings).Write);
            var baseline = Baseline.Read(path);
            Assert.DoesNotContain(File.ReadAllText(path), "\"line\"", StringComparison.OrdinalIgnoreCase);
            var again = shop.Analyse(baseline: baseline);
            Assert.All(again.Findings, f => Assert.True(f.Baselined));
            Assert.Equal(0, again.AtLeast(Severity.Warning));
            Assert.Equal(shop.Result.Findings.Count, again.Baselined);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
