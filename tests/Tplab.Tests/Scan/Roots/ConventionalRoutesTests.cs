using Tplab.Blocking;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Roots;

/// <summary>
/// Conventional routes as endpoint providers map them: named <c>MapControllerRoute</c> calls pinned to one action by
/// their defaults, patterns built from a prefix local or parameter, beside the default route.
/// </summary>
[ParallelSafe]
public sealed class ConventionalRoutesTests
{
    private const string Mvc = """
        namespace Microsoft.AspNetCore.Routing { public interface IEndpointRouteBuilder { IServiceProvider ServiceProvider { get; } } }
        namespace Microsoft.AspNetCore.Mvc { public abstract class ControllerBase { } }
        namespace Microsoft.AspNetCore.Builder
        {
            public sealed class ControllerActionEndpointConventionBuilder { }
            public static class ControllerEndpointRouteBuilderExtensions
            {
                public static ControllerActionEndpointConventionBuilder MapControllerRoute(this Microsoft.AspNetCore.Routing.IEndpointRouteBuilder endpoints,
                    string name, string pattern, object? defaults = null, object? constraints = null, object? dataTokens = null) => new();
                public static ControllerActionEndpointConventionBuilder MapDefaultControllerRoute(this Microsoft.AspNetCore.Routing.IEndpointRouteBuilder endpoints) => new();
            }
        }
        """;

    private const string App = """
        using Microsoft.AspNetCore.Builder;
        using Microsoft.AspNetCore.Mvc;
        using Microsoft.AspNetCore.Routing;
        public interface IEndpointProvider { void RegisterEndpoint(IEndpointRouteBuilder endpoints); }
        public sealed class AppSettings { public bool LanguagesInUrls { get; set; } public string DefaultLanguage { get; set; } = "en"; }
        public sealed class EndpointProvider(AppSettings settings) : IEndpointProvider
        {
            public void RegisterEndpoint(IEndpointRouteBuilder endpoints)
            {
                var pattern = "";
                if (settings.LanguagesInUrls)
                {
                    pattern = $"{{language:lang={settings.DefaultLanguage}}}/";
                }
                endpoints.MapControllerRoute("HomePage", pattern, new { controller = "Home", action = "Index" });
                RegisterAccountRoutes(endpoints, pattern);
                endpoints.MapControllerRoute("Default", "{controller=Home}/{action=Index}/{id?}");
            }

            private static void RegisterAccountRoutes(IEndpointRouteBuilder endpoints, string pattern)
            {
                endpoints.MapControllerRoute("Login", $"{pattern}login/", new { controller = "Account", action = "Login" });
                endpoints.MapControllerRoute("CustomerInfo", pattern + "account/info", new { controller = "Customer", action = "Info" });
            }
        }
        public sealed class InstallProvider : IEndpointProvider
        {
            public void RegisterEndpoint(IEndpointRouteBuilder endpoints) =>
                endpoints.MapControllerRoute("Install", "install", new { controller = "Install", action = "Index" });
        }
        public sealed class AccountController : ControllerBase { public string Login() => "login"; public string Logout() => "bye"; }
        public sealed class CustomerController : ControllerBase { public string Info() => File.ReadAllText("info"); }
        public sealed class HomeController : ControllerBase { public string Index() => "home"; }
        """;

    [Fact]
    public void Find_NamedRoutesPinnedByDefaults_ReachTheirActionOnlyWithThePrefixOfTheDefaultPath()
    {
        var routes = Snippet.FindingsByRoot(App, Mvc)
            .Where(r => r.Root.Place == CodePlace.MvcAction)
            .GroupBy(r => r.Root.Node.Symbol.ContainingType.Name + "." + r.Root.Node.Symbol.Name)
            .ToDictionary(g => g.Key, g => g.Select(r => r.Root.Endpoint!.ToString()).Order(StringComparer.Ordinal).ToList());

        Assert.Equal(["ANY /Account/Login/{id?}", "ANY /login"], routes["AccountController.Login"]);
        Assert.Equal(["ANY /Account/Logout/{id?}"], routes["AccountController.Logout"]);
        Assert.Equal(["ANY /Customer/Info/{id?}", "ANY /account/info"], routes["CustomerController.Info"]);
        Assert.Equal(["ANY /", "ANY /Home/Index/{id?}"], routes["HomeController.Index"]);
    }

    [Fact]
    public void Find_PatternFromAParameterCallersDisagreeOn_IsLeftOut()
    {
        var routes = Snippet.FindingsByRoot("""
            using Microsoft.AspNetCore.Builder;
            using Microsoft.AspNetCore.Mvc;
            using Microsoft.AspNetCore.Routing;
            public static class Routes
            {
                public static void Map(IEndpointRouteBuilder endpoints)
                {
                    Orders(endpoints, "shop/");
                    Orders(endpoints, "store/");
                }
                private static void Orders(IEndpointRouteBuilder endpoints, string prefix) =>
                    endpoints.MapControllerRoute("Orders", prefix + "orders", new { controller = "Order", action = "List" });
            }
            public sealed class OrderController : ControllerBase { public string List() => "orders"; }
            """, Mvc)
            .Where(r => r.Root.Place == CodePlace.MvcAction)
            .Select(r => r.Root.Endpoint!.ToString())
            .ToList();
        Assert.Equal(["ANY /Order/List"], routes);
    }

    [Fact]
    public void Find_MapDefaultControllerRoute_GivesEveryActionTheDefaultPattern()
    {
        var routes = Snippet.FindingsByRoot("""
            using Microsoft.AspNetCore.Builder;
            using Microsoft.AspNetCore.Mvc;
            using Microsoft.AspNetCore.Routing;
            public static class Routes
            {
                public static void Map(IEndpointRouteBuilder app) => app.MapDefaultControllerRoute();
            }
            public sealed class HomeController : ControllerBase { public string Index() => "home"; }
            public sealed class OrderController : ControllerBase { public string List() => File.ReadAllText("orders"); }
            """, Mvc)
            .Where(r => r.Root.Place == CodePlace.MvcAction)
            .Select(r => r.Root.Endpoint!.ToString())
            .Order(StringComparer.Ordinal)
            .ToList();
        Assert.Equal(["ANY /Home/Index/{id?}", "ANY /Order/List/{id?}"], routes);
    }
}
