using Tplab.Blocking;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Roots;

/// <summary>
/// The app's own type set on a framework options object (a cookie's <c>SessionStore</c>) is called by the framework
/// while requests wait: its implementations of the property's interface are entry points.
/// </summary>
[ParallelSafe]
public sealed class FrameworkCallbacksTests
{
    // ASP.NET Core's cookie options and options post-configuration, as the packages ship them.
    private const string Framework = PackageFakes.Code + """

        namespace Microsoft.AspNetCore.Authentication { public sealed class AuthenticationTicket { } }
        namespace Microsoft.AspNetCore.Authentication.Cookies
        {
            public interface ITicketStore
            {
                Task<string> StoreAsync(Microsoft.AspNetCore.Authentication.AuthenticationTicket ticket);
                Task RenewAsync(string key, Microsoft.AspNetCore.Authentication.AuthenticationTicket ticket);
                Task<Microsoft.AspNetCore.Authentication.AuthenticationTicket?> RetrieveAsync(string key);
                Task RemoveAsync(string key);
            }
            public class CookieAuthenticationOptions
            {
                public ITicketStore? SessionStore { get; set; }
                public string? LoginPath { get; set; }
            }
        }
        namespace Microsoft.Extensions.Options
        {
            public interface IPostConfigureOptions<TOptions> where TOptions : class { void PostConfigure(string? name, TOptions options); }
        }
        """;

    private const string App = """
        using Microsoft.AspNetCore.Authentication;
        using Microsoft.AspNetCore.Authentication.Cookies;
        using Microsoft.Extensions.Caching.Distributed;
        using Microsoft.Extensions.Options;

        public sealed class CacheTicketStore(IDistributedCache cache) : ITicketStore
        {
            public Task<string> StoreAsync(AuthenticationTicket ticket) => Task.FromResult(Guid.NewGuid().ToString());
            public Task RenewAsync(string key, AuthenticationTicket ticket) => Task.CompletedTask;
            public Task<AuthenticationTicket?> RetrieveAsync(string key)
            {
                var bytes = cache.Get(key);
                return Task.FromResult(bytes is null ? null : new AuthenticationTicket());
            }
            public Task RemoveAsync(string key)
            {
                cache.Remove(key);
                return Task.CompletedTask;
            }
        }

        public sealed class ExternalCookieOptions(IDistributedCache cache) : IPostConfigureOptions<CookieAuthenticationOptions>
        {
            public void PostConfigure(string? name, CookieAuthenticationOptions options)
            {
                options.LoginPath = "/login";
                options.SessionStore = new CacheTicketStore(cache);
            }
        }

        // The app's own options filled with the app's own type: no framework calls it.
        public interface ILines { void Print(); }
        public sealed class Lines : ILines { public void Print() => Thread.Sleep(1); }
        public sealed class OrderOptions { public ILines? Lines { get; set; } }
        public static class Mapper { public static void Fill(OrderOptions model) => model.Lines = new Lines(); }
        """;

    [Fact]
    public void Find_AppTypeSetOnFrameworkOptions_ItsInterfaceMethodsAreFrameworkCallbacks()
    {
        var roots = Snippet.Roots(App, library: Framework).Roots.Where(r => r.Place == CodePlace.FrameworkCallback).ToList();

        Assert.Equal(["CacheTicketStore.RemoveAsync", "CacheTicketStore.RenewAsync", "CacheTicketStore.RetrieveAsync", "CacheTicketStore.StoreAsync"],
            roots.Select(r => r.Node.DisplayName).Order(StringComparer.Ordinal));
        Assert.All(roots, r => Assert.Contains("set as CookieAuthenticationOptions.SessionStore", r.Title, StringComparison.Ordinal));
        Assert.True(PlaceWords.IsRequestPath(CodePlace.FrameworkCallback));
    }

    [Fact]
    public void Sites_SyncCacheReadInTheSessionStore_IsReportedFromTheCallback()
    {
        var sites = Snippet.Sites(App, library: Framework);

        var get = Assert.Single(sites, f => f.Call.Name == "IDistributedCache.Get");
        Assert.Equal(CodePlace.FrameworkCallback, get.Root.Place);
        Assert.Equal("CacheTicketStore.RetrieveAsync", get.Root.Node.DisplayName);
        Assert.Contains(sites, f => f.Call.Name == "IDistributedCache.Remove");
        Assert.DoesNotContain(sites, f => f.Call.Name == "Thread.Sleep");
    }
}
