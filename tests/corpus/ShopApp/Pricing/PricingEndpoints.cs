using System.Net.Http.Json;
using ShopApp.Corpus;
using ShopApp.Infrastructure;

namespace ShopApp.Pricing;

public static class PricingEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("prices-result", "GET", "/api/prices/SKU-1001", "/api/prices/{sku}",
            "Pricing.PriceClient.GetPrice", "Task.Result", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/prices/{sku} handler", "Pricing/PricingEndpoints.cs", "Results.Ok(pricing.Quote(client, sku, 1))"),
                    new("PricingService.Quote", "Pricing/PricingEndpoints.cs", "var unit = client.GetPrice(sku);"),
                    new("PriceClient.GetPrice", "Pricing/PricingEndpoints.cs", "public decimal GetPrice(string sku) =>"),
                ],
            },
        ExpectedCulprit.Healthy("prices-live", "GET", "/api/prices/SKU-1001/live", "/api/prices/{sku}/live", Place.MinimalApi),
    ];

    public static void MapPricing(this IEndpointRouteBuilder app)
    {
        var prices = app.MapGroup("/api/prices");
        prices.MapGet("/{sku}", (string sku, PricingService pricing, PriceClient client) => Results.Ok(pricing.Quote(client, sku, 1)));
        prices.MapGet("/{sku}/live", async (string sku, PriceClient client, CancellationToken ct) =>
            Results.Ok(await client.GetPriceAsync(sku, ct)));
    }
}

public sealed class PricingService
{
    public decimal Quote(PriceClient client, string sku, int quantity)
    {
        var unit = client.GetPrice(sku);
        var discount = quantity >= 10 ? 0.9m : 1m;
        return Math.Round(unit * quantity * discount, 2);
    }
}

/// <summary>Typed client of the pricing API.</summary>
public sealed class PriceClient(HttpClient http)
{
    public decimal GetPrice(string sku) => GetPriceAsync(sku, CancellationToken.None).Result;

    public async Task<decimal> GetPriceAsync(string sku, CancellationToken ct)
    {
        var quote = await http.GetFromJsonAsync<PriceQuote>($"prices/{Uri.EscapeDataString(sku)}", ct);
        return quote?.Price ?? throw new InvalidOperationException("no price for " + sku);
    }
}
