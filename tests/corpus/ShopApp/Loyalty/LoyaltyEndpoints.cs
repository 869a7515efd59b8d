using Microsoft.Extensions.Options;
using ShopApp.Corpus;
using ShopApp.Infrastructure;

namespace ShopApp.Loyalty;

public static class LoyaltyEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // The handler is async; the balance is read synchronously after its first await, so the wait runs in the
        // handler's continuation, with no ASP.NET Core frame below it.
        ExpectedCulprit.Blocking("loyalty-continuation", "GET", "/api/loyalty/12", "/api/loyalty/{customerId}",
            "Loyalty.LoyaltyService.PointsBalance", "Task.Result", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/loyalty/{customerId} handler", "Loyalty/LoyaltyEndpoints.cs", "points = loyalty.PointsBalance(customerId)"),
                    new("LoyaltyService.PointsBalance", "Loyalty/LoyaltyEndpoints.cs", "public int PointsBalance(int customerId) =>"),
                ],
                RunsIn = "continuation",
            },
    ];

    public static IServiceCollection AddLoyalty(this IServiceCollection services) =>
        services.AddSingleton<PointsLedger>().AddScoped<LoyaltyService>();

    public static void MapLoyalty(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/loyalty/{customerId:int}", async (int customerId, LoyaltyService loyalty, CancellationToken ct) =>
        {
            var tier = await loyalty.GetTierAsync(customerId, ct);
            return Results.Ok(new { customerId, tier, points = loyalty.PointsBalance(customerId) });
        });
}

public sealed class LoyaltyService(PointsLedger ledger, IOptions<ShopOptions> options)
{
    public async Task<string> GetTierAsync(int customerId, CancellationToken ct)
    {
        await Task.Delay(options.Value.UpstreamDelayMs / 5, ct);
        return customerId % 3 == 0 ? "gold" : "silver";
    }

    // Kept synchronous: the points are also shown by the legacy back-office pages, which cannot await.
    public int PointsBalance(int customerId) => ledger.BalanceAsync(customerId).Result;
}

/// <summary>The points ledger service's client.</summary>
public sealed class PointsLedger(IOptions<ShopOptions> options)
{
    public async Task<int> BalanceAsync(int customerId)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return customerId * 10;
    }
}
