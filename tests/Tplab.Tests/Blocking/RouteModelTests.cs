using Tplab.Tests.Support;

namespace Tplab.Tests.Blocking;

/// <summary>
/// The one route model over every attribute form MVC routes by, read by both of its readers: scan (Roslyn) and diagnose
/// (a compiled DLL's metadata and IL) must each give the routes ASP.NET Core gives, so they agree with each other.
/// </summary>
[ParallelSafe]
public sealed class RouteModelTests(RouteModelTests.Lab lab) : IClassFixture<RouteModelTests.Lab>
{
    /// <summary>The controllers, written as application teams write them.</summary>
    public const string Code = """
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;
        using Microsoft.AspNetCore.Mvc;
        using Microsoft.AspNetCore.Mvc.Routing;

        namespace Lab.Api;

        // The app's own versioned-API attribute: a RouteAttribute with a default resource.
        public sealed class V3ApiControllerAttribute : RouteAttribute
        {
            public V3ApiControllerAttribute(string resource = "[controller]") : base("api/v3/" + resource) { }
        }

        // An interpolated prefix and an order set in the constructor's body.
        public sealed class VersionedRouteAttribute : RouteAttribute
        {
            public VersionedRouteAttribute(string version, string resource) : base($"api/v{version}/{resource}") { Order = 1; }
        }

        // A verb of the app's own: HttpMethodAttribute with a fixed method.
        public sealed class HttpPutV2Attribute : HttpMethodAttribute
        {
            public HttpPutV2Attribute(string template) : base(new[] { "PUT" }, template) { }
        }

        // A subclass of a framework verb attribute.
        public sealed class HttpGetJsonAttribute : HttpGetAttribute
        {
            public HttpGetJsonAttribute(string template) : base(template) { }
        }

        // IActionHttpMethodProvider implemented by the app itself.
        [AttributeUsage(AttributeTargets.Method)]
        public sealed class PurgeAttribute : Attribute, IActionHttpMethodProvider
        {
            public IEnumerable<string> HttpMethods => new[] { "PURGE" };
        }

        // IRouteTemplateProvider whose template only exists at run time: unknown, never guessed.
        public sealed class ConfiguredRouteAttribute : Attribute, IRouteTemplateProvider
        {
            public string? Template => Environment.GetEnvironmentVariable("LAB_PREFIX");
            public int? Order => 0;
            public string? Name => "configured";
        }

        [ApiController]
        [V3ApiController]
        public class SettingsController : ControllerBase
        {
            [HttpPutV2("host/{id?}")] public IActionResult SaveHost(int? id) => Ok();
            [HttpGet("~/status")] public IActionResult Status() => Ok();
            [HttpGet("/health")] public IActionResult Health() => Ok();
            [HttpGet, HttpHead] public IActionResult List() => Ok();
            [AcceptVerbs("GET", "POST", Route = "search")] public IActionResult Search() => Ok();
            [HttpGet("[action]")] public Task<IActionResult> ExportAsync() => Task.FromResult<IActionResult>(Ok());
            [HttpGet("[action]"), ActionName("dump")] public IActionResult Download() => Ok();
            [Purge, Route("cache")] public IActionResult Clear() => Ok();
            [Route("a"), Route("b"), HttpPost] public IActionResult Two() => Ok();
            [HttpGet("x"), HttpPost("y")] public IActionResult Pair() => Ok();
            [HttpGetJson("json/{id}")] public IActionResult Json(int id) => Ok();
            [NonAction] public void Helper() { }
        }

        [V3ApiController("orders")]
        public class OrdersV3Controller : ControllerBase
        {
            [HttpGet("{id}")] public IActionResult Get(int id) => Ok();
        }

        [VersionedRoute("2", "[controller]")]
        public class InvoicesController : ControllerBase
        {
            [HttpGet("{id}")] public IActionResult Get(int id) => Ok();
        }

        [Route("api/v1/orders")]
        public class OrdersV1Controller : ControllerBase
        {
            [HttpGet("{id}")] public IActionResult Get(int id) => Ok();
        }

        [Route("api/v2/orders")]
        public class OrdersV2Controller : ControllerBase
        {
            [HttpGet("{id}")] public IActionResult Get(int id) => Ok();
        }

        [Area("Admin"), Route("[area]/[controller]")]
        public class UsersController : Controller
        {
            [HttpGet("[action]")] public IActionResult List() => Ok();
        }

        [Area("Admin")]
        public class ReportsController : Controller
        {
            public IActionResult Daily() => Ok();
        }

        public class HomeController : Controller
        {
            public IActionResult Index() => Ok();
            [HttpPost] public IActionResult Contact() => Ok();
        }

        [ApiController, Route("api/[controller]")]
        public abstract class CrudController : ControllerBase
        {
            [HttpGet("{id}")] public IActionResult Get(int id) => Ok();
            [HttpDelete("{id}")] public virtual IActionResult Delete(int id) => Ok();
            [HttpGet("~/ping")] public IActionResult Ping() => Ok();
        }

        public class ProductsController : CrudController { }

        [Route("api/catalog/[controller]")]
        public class TagsController : CrudController
        {
            [HttpDelete("{id}/soft")] public override IActionResult Delete(int id) => Ok();
        }

        public class LabelsController : CrudController
        {
            public override IActionResult Delete(int id) => Ok();
        }

        [ConfiguredRoute]
        public class DynamicController : ControllerBase
        {
            [HttpGet("{id}")] public IActionResult Get(int id) => Ok();
        }
        """;

    [Theory]
    // The app's own IRouteTemplateProvider: a RouteAttribute subclass, its default argument, a verb of its own.
    [InlineData("SettingsController", "SaveHost", "PUT /api/v3/Settings/host/{id?}")]
    [InlineData("OrdersV3Controller", "Get", "GET /api/v3/orders/{id}")]
    [InlineData("InvoicesController", "Get", "GET /api/v2/Invoices/{id}")]
    [InlineData("SettingsController", "Json", "GET /api/v3/Settings/json/{id}")]
    [InlineData("SettingsController", "Clear", "PURGE /api/v3/Settings/cache")]
    // ~/ and / override the controller's prefix; silent verbs take the controller's route.
    [InlineData("SettingsController", "Status", "GET /status")]
    [InlineData("SettingsController", "Health", "GET /health")]
    [InlineData("SettingsController", "List", "GET /api/v3/Settings|HEAD /api/v3/Settings")]
    // [AcceptVerbs], several route attributes, a route attribute with verb attributes.
    [InlineData("SettingsController", "Search", "GET /api/v3/Settings/search|POST /api/v3/Settings/search")]
    [InlineData("SettingsController", "Two", "POST /api/v3/Settings/a|POST /api/v3/Settings/b")]
    [InlineData("SettingsController", "Pair", "GET /api/v3/Settings/x|POST /api/v3/Settings/y")]
    // [action]: less Async; [ActionName] first; [NonAction] is none.
    [InlineData("SettingsController", "ExportAsync", "GET /api/v3/Settings/Export")]
    [InlineData("SettingsController", "Download", "GET /api/v3/Settings/dump")]
    [InlineData("SettingsController", "Helper", "")]
    // v1/v2 twins: two actions, two routes.
    [InlineData("OrdersV1Controller", "Get", "GET /api/v1/orders/{id}")]
    [InlineData("OrdersV2Controller", "Get", "GET /api/v2/orders/{id}")]
    // [Area] and [area]; conventional routes with and without an area.
    [InlineData("UsersController", "List", "GET /Admin/Users/List")]
    [InlineData("ReportsController", "Daily", "ANY /Admin/Reports/Daily")]
    [InlineData("HomeController", "Index", "ANY /Home/Index")]
    [InlineData("HomeController", "Contact", "POST /Home/Contact")]
    // Inherited: the base's route on each concrete controller; a derived class's route replaces the base's; an override's own.
    [InlineData("ProductsController", "Get", "GET /api/Products/{id}")]
    [InlineData("ProductsController", "Delete", "DELETE /api/Products/{id}")]
    [InlineData("TagsController", "Get", "GET /api/catalog/Tags/{id}")]
    [InlineData("TagsController", "Delete", "DELETE /api/catalog/Tags/{id}/soft")]
    [InlineData("LabelsController", "Delete", "DELETE /api/Labels/{id}")]
    // A template only known at run time: said as unknown.
    [InlineData("DynamicController", "Get", "GET /(unknown)/{id}")]
    public void Routes_EveryAttributeForm_AsAspNetCoreAndTheSameForScanAndDiagnose(string controller, string method, string expected)
    {
        var want = expected.Length == 0 ? [] : expected.Split('|').Order(StringComparer.Ordinal).ToList();

        Assert.Equal(want, lab.Snippet.Scan(controller, method));
        Assert.Equal(want, lab.Snippet.Diagnose("Lab.Api." + controller, method));
    }

    [Fact]
    public void Roots_AnActionInheritedByTwoControllersOnOneRoute_AreTwoEntryPoints()
    {
        var ping = lab.Snippet.Roots.Where(r => r.Endpoint?.Route == "/ping").ToList();

        // Products, Tags, Labels: one entry per concrete controller, each keyed by its method and controller.
        Assert.Equal(["LabelsController", "ProductsController", "TagsController"], ping.Select(r => r.Controller!.Name).Order(StringComparer.Ordinal));
        Assert.All(ping, r => Assert.Equal("Lab.Api.CrudController.Ping", r.Node.FullName));
    }

    [Fact]
    public void Roots_TwinActionsOfV1AndV2_StayTwoEntryPointsInTheirOwnFiles()
    {
        var twins = lab.Snippet.Roots.Where(r => r.Node.Symbol.Name == "Get" && r.Controller?.Name is "OrdersV1Controller" or "OrdersV2Controller").ToList();

        Assert.Equal(2, twins.Count);
        Assert.NotEqual(twins[0].Node.Line, twins[1].Node.Line);
        Assert.NotEqual(twins[0].Key, twins[1].Key);
    }

    [Fact]
    public async Task Routes_OfEveryAttributeRoutedAction_AreAspNetCoresOwnRouteTable()
    {
        // ASP.NET Core's own endpoints for the compiled snippet (MVC's application model, no server started); the template
        // only known at run time is left out (scan says it is unknown), and so are the conventional routes (none is mapped).
        var table = (await lab.Snippet.AspNetCoreRoutesAsync()).Where(r => !r.StartsWith("DynamicController.", StringComparison.Ordinal)).ToHashSet(StringComparer.Ordinal);
        var scan = lab.Snippet.Roots.Where(r => r.Place == Tplab.Blocking.CodePlace.MvcAction && r.Controller!.Name is not ("DynamicController" or "HomeController" or "ReportsController"))
            .Select(r => $"{r.Controller!.Name}.{r.Node.Symbol.Name} {r.Endpoint}").ToHashSet(StringComparer.Ordinal);

        Assert.True(table.Count >= 25, $"only {table.Count} attribute-routed endpoints in ASP.NET Core's table");
        Assert.Equal(table.Order(StringComparer.Ordinal), scan.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void MapMethods_ThePatternAndEachMethod_TheSameForScanAndDiagnose()
    {
        using var maps = new RouteModelSnippet("""
            using Microsoft.AspNetCore.Builder;
            using Microsoft.AspNetCore.Routing;

            namespace Lab.Api;

            public static class StockEndpoints
            {
                public static void Map(IEndpointRouteBuilder app)
                {
                    app.MapMethods("/stock/{sku}", new[] { "GET", "head" }, (string sku) => sku);
                    app.MapGroup("/api").MapMethods("/prices", new[] { "PUT" }, () => "ok");
                }
            }
            """);
        var scan = maps.Roots.Where(r => r.Endpoint is not null).Select(r => r.Endpoint!.ToString()).Order(StringComparer.Ordinal).ToList();

        Assert.Equal(["GET /stock/{sku}", "HEAD /stock/{sku}", "PUT /api/prices"], scan);
        Assert.Equal(scan, maps.DiagnoseMaps());
    }

    /// <summary>The snippet compiled once for the class.</summary>
    public sealed class Lab : IDisposable
    {
        internal RouteModelSnippet Snippet { get; } = new(Code);

        public void Dispose() => Snippet.Dispose();
    }
}
