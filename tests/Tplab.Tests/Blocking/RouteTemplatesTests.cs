using Tplab.Blocking;
using Tplab.Tests.Support;

namespace Tplab.Tests.Blocking;

/// <summary>Route templates combined and filled as MVC's AttributeRouteModel does.</summary>
[ParallelSafe]
public sealed class RouteTemplatesTests
{
    [Theory]
    [InlineData("api/[controller]", "{id}", "api/[controller]/{id}")]
    [InlineData("api/[controller]/", "", "api/[controller]")]
    [InlineData("api/[controller]", null, "api/[controller]")]
    [InlineData(null, "orders", "orders")]
    [InlineData(null, null, null)]
    // An action template starting with / or ~/ ignores the controller's.
    [InlineData("api/[controller]", "/status", "status")]
    [InlineData("api/[controller]", "~/status", "status")]
    [InlineData("~/", "x", "x")]
    public void Combine_AsAttributeRouteModel(string? prefix, string? template, string? expected) =>
        Assert.Equal(expected, RouteTemplates.Combine(prefix, template));

    [Theory]
    [InlineData("api/[controller]/[action]", "api/Orders/List")]
    [InlineData("[AREA]/[Controller]/[ACTION]", "Admin/Orders/List")]
    // [[ and ]] are literal brackets; a token without a value stays as written.
    [InlineData("x/[[literal]]", "x/[literal]")]
    [InlineData("x/[tenant]", "x/[tenant]")]
    public void ReplaceTokens_AnyRouteValue_AnyCase(string template, string expected) =>
        Assert.Equal(expected, RouteTemplates.ReplaceTokens(template, new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
        {
            ["controller"] = "Orders", ["action"] = "List", ["area"] = "Admin",
        }));

    [Theory]
    [InlineData("{controller=Home}/{action=Index}/{id?}", "Orders/List/{id?}")]
    [InlineData("{area:exists}/{controller}/{action}", "Admin/Orders/List")]
    [InlineData("/shop/{controller}/{action}", "shop/Orders/List")]
    public void FillConventional_ControllerActionArea(string pattern, string expected) =>
        Assert.Equal(expected, RouteTemplates.FillConventional(pattern, new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
        {
            ["controller"] = "Orders", ["action"] = "List", ["area"] = "Admin",
        }));

    [Theory]
    [InlineData("OrdersController", "Orders")]
    [InlineData("orderscontroller", "orders")]
    [InlineData("Orders", "Orders")]
    [InlineData("Controller", "Controller")]
    public void ControllerName_DropsTheSuffixInAnyCase(string type, string name) => Assert.Equal(name, MvcRouteModel.ControllerName(type));

    [Theory]
    [InlineData("GetOrdersAsync", "GetOrders")]
    [InlineData("Async", "Async")]
    [InlineData("Getasync", "Getasync")]
    public void ActionName_DropsAsyncAsSuppressAsyncSuffixInActionNames(string method, string name) => Assert.Equal(name, MvcRouteModel.ActionName(method));
}
