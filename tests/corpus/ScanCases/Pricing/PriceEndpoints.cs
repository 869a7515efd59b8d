namespace ScanCases.Pricing;

public static class PriceEndpoints
{
    public static IServiceCollection AddPricing(this IServiceCollection services) =>
        services
            .AddSingleton<PriceBoard>()
            .AddHostedService<PriceBoardRefresher>()
            .AddSingleton<FxRates>()
            .AddScoped<QuoteService>();

    public static void MapPricing(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/prices/{sku}", (string sku, PriceBoard board) =>
            board.PriceOf(sku) is { } price ? Results.Ok(new { sku, price }) : Results.NotFound());
        app.MapGet("/api/prices/{sku}/currency", (string sku, string country, QuoteService quotes) =>
            Results.Ok(new { sku, currency = quotes.CurrencyFor(country) }));

        var quotes = app.MapGroup("/api/quotes");
        quotes.MapGet("/{sku}", (string sku, string currency, QuoteService service) => Results.Ok(service.Quote(sku, currency)));
        quotes.MapGet("/{sku}/fast", async (string sku, string currency, QuoteService service) =>
            Results.Ok(await service.QuoteFastAsync(sku, currency)));
        quotes.MapGet("/{sku}/tag", async (string sku, string currency, QuoteService service) =>
            Results.Ok(await service.QuoteTagAsync(sku, currency)));
        quotes.MapGet("/{sku}/within", async (string sku, string currency, int? ms, QuoteService service) =>
            Results.Ok(await service.QuoteWithinAsync(sku, currency, TimeSpan.FromMilliseconds(ms ?? 200))));
    }
}
