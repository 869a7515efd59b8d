using System.Net.Http.Json;
using ShopApp.Corpus;
using ShopApp.Infrastructure;

namespace ShopApp.Shipping;

public static class ShippingEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("shipping-waitall", "GET", "/api/shipping/quote?zip=1011", "/api/shipping/quote",
            "Shipping.ShippingService.QuoteAll", "Task.WaitAll", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/shipping/quote handler", "Shipping/ShippingEndpoints.cs", "Results.Ok(shipping.QuoteAll(zip))"),
                    new("ShippingService.QuoteAll", "Shipping/ShippingEndpoints.cs", "Task.WaitAll(quotes);"),
                ],
            },
    ];

    public static void MapShipping(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/shipping/quote", (string zip, ShippingService shipping) => Results.Ok(shipping.QuoteAll(zip)));
}

public sealed class ShippingService(CarrierClient carriers)
{
    private static readonly string[] Carriers = ["postnl", "dhl", "ups"];

    public IReadOnlyList<CarrierQuote> QuoteAll(string zip)
    {
        var quotes = Carriers.Select(c => carriers.QuoteAsync(c, zip)).ToArray();
        Task.WaitAll(quotes);
        return [.. quotes.Select(q => q.Result).OrderBy(q => q.Price)];
    }
}

public sealed class CarrierClient(HttpClient http)
{
    public async Task<CarrierQuote> QuoteAsync(string carrier, string zip)
    {
        var quote = await http.GetFromJsonAsync<CarrierQuote>($"carriers/{carrier}?zip={Uri.EscapeDataString(zip)}");
        return quote ?? throw new InvalidOperationException("no quote from " + carrier);
    }
}
