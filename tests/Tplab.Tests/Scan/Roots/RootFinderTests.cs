using Tplab.Blocking;
using Tplab.Scan;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;

namespace Tplab.Tests.Scan.Roots;

/// <summary>Entry points recognised by symbols in a real solution loaded by MSBuildWorkspace (tests/scan-fixtures/Shop).</summary>
[Collection(ShopScanCollection.Name)]
public sealed class RootFinderTests(ShopScan shop)
{
    private IReadOnlyList<EntryPoint> Roots => RootFinder.Find(Scanner.Index(shop.Code), CancellationToken.None).Roots;

    [Theory]
    // Minimal APIs: groups nested in locals, a group passed to a helper, method groups, MapMethods.
    [InlineData("GET /api/orders/{id:int}", "minimal-api", "Shop.Web.Endpoints.OrderEndpoints.GetOrder")]
    [InlineData("POST /api/orders", "minimal-api", "Shop.Web.Endpoints.OrderEndpoints.MapOrders")]
    [InlineData("GET /api/reports/daily", "minimal-api", "Shop.Web.Endpoints.OrderEndpoints.MapReports")]
    [InlineData("GET /stock/{sku}", "minimal-api", "Shop.Web.Endpoints.StockEndpoint.Handle")]
    [InlineData("HEAD /stock/{sku}", "minimal-api", "Shop.Web.Endpoints.StockEndpoint.Handle")]
    [InlineData("GET /ping", "minimal-api", "Program.Main")]
    // MVC: controller and action routes, tokens, an absolute template, an area, the app's conventional route.
    [InlineData("GET /api/Invoices/{id:int}", "mvc-action", "Shop.Web.Controllers.InvoicesController.Get")]
    [InlineData("POST /api/Invoices", "mvc-action", "Shop.Web.Controllers.InvoicesController.Post")]
    [InlineData("GET /absolute/invoices", "mvc-action", "Shop.Web.Controllers.InvoicesController.List")]
    [InlineData("ANY /Admin/Users/List", "mvc-action", "Shop.Web.Controllers.UsersController.List")]
    [InlineData("ANY /Home/Index/{id?}", "mvc-action", "Shop.Web.Controllers.HomeController.Index")]
    [InlineData("POST /Home/Contact/{id?}", "mvc-action", "Shop.Web.Controllers.HomeController.Contact")]
    // Razor Pages: the page's path, its @page template, a named handler.
    [InlineData("GET /Orders/Details/{id:int}", "razor-page", "Shop.Web.Pages.Orders.DetailsModel.OnGet")]
    [InlineData("POST /Orders/Details/{id:int}?handler=Cancel", "razor-page", "Shop.Web.Pages.Orders.DetailsModel.OnPostCancelAsync")]
    // What else serves requests.
    [InlineData("GET /clock", "blazor-component", "Shop.Web.Infrastructure.Clock.OnInitialized")]
    [InlineData("GET /healthz", "health-check", "Shop.Web.Infrastructure.DatabaseHealthCheck.CheckHealthAsync")]
    [InlineData("hub Shop.Web.Infrastructure.ChatHub.Send", "hub", "Shop.Web.Infrastructure.ChatHub.Send")]
    [InlineData("view-component Shop.Web.Infrastructure.CartSummaryViewComponent.Invoke", "view-component", "Shop.Web.Infrastructure.CartSummaryViewComponent.Invoke")]
    [InlineData("delegating-handler Shop.Web.Infrastructure.SigningHandler.SendAsync", "delegating-handler", "Shop.Web.Infrastructure.SigningHandler.SendAsync")]
    [InlineData("authorization-handler Shop.Web.Infrastructure.RegionHandler.HandleRequirementAsync", "authorization-handler", "Shop.Web.Infrastructure.RegionHandler.HandleRequirementAsync")]
    [InlineData("request-handler Shop.Web.Controllers.GetInvoiceTotalHandler.Handle", "request-handler", "Shop.Web.Controllers.GetInvoiceTotalHandler.Handle")]
    [InlineData("middleware Shop.Web.Infrastructure.RequestLogMiddleware.InvokeAsync", "middleware", "Shop.Web.Infrastructure.RequestLogMiddleware.InvokeAsync")]
    [InlineData("middleware Program.Main", "middleware", "Program.Main")]
    [InlineData("filter Shop.Web.Controllers.AuditFilter.OnActionExecutionAsync", "filter", "Shop.Web.Controllers.AuditFilter.OnActionExecutionAsync")]
    // The pool's own work: hosted services, timers, factories.
    [InlineData("hosted-service Shop.Web.Services.CacheRefresher.ExecuteAsync", "hosted-service", "Shop.Web.Services.CacheRefresher.ExecuteAsync")]
    [InlineData("hosted-service Shop.Web.Services.CatalogWarmer.StartAsync", "hosted-service", "Shop.Web.Services.CatalogWarmer.StartAsync")]
    [InlineData("timer Shop.Web.Services.Flusher..ctor", "timer", "Shop.Web.Services.Flusher..ctor")]
    [InlineData("timer Shop.Web.Services.PartnerPoller.PollAsync", "timer", "Shop.Web.Services.PartnerPoller.PollAsync")]
    [InlineData("di-factory IRatesProvider", "di-factory", "Program.Main")]
    [InlineData("di-factory IStockStore", "di-factory", "Program.Main")]
    public void Find_ShopSolution_RecognisesEntryPoint(string key, string place, string method)
    {
        var root = Roots.FirstOrDefault(r => r.Key == key);
        Assert.True(root is not null, $"no entry point {key}; found: {string.Join(", ", Roots.Select(r => r.Key))}");
        Assert.Equal(place, PlaceWords.Id(root.Place));
        Assert.Equal(method, root.Node.FullName);
    }

    [Theory]
    [InlineData("Shop.Web.Infrastructure.AdminAuditMiddleware.InvokeAsync", "/admin")]
    [InlineData("Shop.Web.Controllers.GlobalTimingFilter.OnActionExecuting", "every MVC action")]
    [InlineData("Shop.Web.Controllers.AuditFilter.OnActionExecutionAsync", "POST /api/Invoices")]
    [InlineData("Shop.Web.Infrastructure.ChatHub.Send", "/hubs/chat")]
    public void Find_MiddlewareFiltersAndHubs_SayWhatTheyGuard(string method, string guard)
    {
        var root = Roots.Single(r => r.Node.FullName == method);
        Assert.Equal([guard], root.Guards);
    }

    [Fact]
    public void Find_MiddlewareOnTheApp_GuardsEveryRequest() =>
        Assert.Empty(Roots.Single(r => r.Node.FullName == "Shop.Web.Infrastructure.RequestLogMiddleware.InvokeAsync").Guards);

    [Fact]
    public void Find_TestProject_IsLeftOut()
    {
        Assert.Contains("Shop.Web.Tests", shop.Code.LeftOutTests);
        Assert.DoesNotContain(Roots, r => r.Node.TypeName.Contains("FakePartner", StringComparison.Ordinal));
    }
}
