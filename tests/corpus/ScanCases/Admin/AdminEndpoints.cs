using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Admin;

public static class AdminEndpoints
{
    public static void MapAdmin(this IEndpointRouteBuilder app)
    {
        var admin = app.MapGroup("/api/admin").AddEndpointFilter<ApiKeyFilter>();
        admin.MapGet("/stats", (RequestStats stats) => Results.Ok(stats.Snapshot()));
    }
}

/// <summary>The back-office tools authenticate with an API key kept in the secrets vault.</summary>
public sealed class ApiKeyFilter(IOptions<BoxOfficeOptions> options) : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var presented = context.HttpContext.Request.Headers["X-Api-Key"].ToString();
        if (!SecretsVault.Matches(presented, options.Value.AdminApiKey))
        {
            return Results.Unauthorized();
        }
        return await next(context);
    }
}

/// <summary>The secrets vault's client: the stored key is fetched for each check, so a rotation applies at once.</summary>
public static class SecretsVault
{
    public static bool Matches(string presented, string configured)
    {
        var stored = FetchSecretAsync(configured).GetAwaiter().GetResult();
        return presented.Length > 0 && string.Equals(presented, stored, StringComparison.Ordinal);
    }

    private static async Task<string> FetchSecretAsync(string fallback)
    {
        await Task.Delay(50);
        return fallback;
    }
}
