using Microsoft.Extensions.Options;
using ShopApp.Corpus;

namespace ShopApp.Infrastructure;

/// <summary>The legacy storefront's tenant lookup, kept synchronous when the storefront was ported.</summary>
public sealed class TenantMiddleware(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context, TenantDirectory tenants)
    {
        var tenant = tenants.Resolve(context.Request.Host.Host);
        context.Items["tenant"] = tenant;
        return next(context);
    }
}

public sealed class TenantDirectory(IOptions<ShopOptions> options)
{
    public string Resolve(string host) => LookUpAsync(host).Result;

    private async Task<string> LookUpAsync(string host)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return host.Split('.')[0];
    }
}

public static class LegacyTenantEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("tenant-middleware", "GET", "/legacy/tenants/7/summary", "/legacy/tenants/{id}/summary",
            "Infrastructure.TenantDirectory.Resolve", "Task.Result", Place.Middleware)
            with
            {
                Chain =
                [
                    new("TenantMiddleware.InvokeAsync", "Infrastructure/TenantMiddleware.cs", "var tenant = tenants.Resolve(context.Request.Host.Host);"),
                    new("TenantDirectory.Resolve", "Infrastructure/TenantMiddleware.cs", "public string Resolve(string host) =>"),
                ],
            },
    ];

    public static void MapLegacyTenants(this IEndpointRouteBuilder app)
    {
        app.MapGet("/legacy/tenants/{id:int}/summary", async (int id, HttpContext context, CancellationToken ct) =>
        {
            await Task.Yield();
            return Results.Ok(new { id, tenant = context.Items["tenant"] });
        });
    }
}
