using Microsoft.Extensions.Options;

namespace ShopApp.Infrastructure;

/// <summary>Stand-ins for the partner APIs (pricing, carriers, geo), slow like the real ones, for running the shop alone.</summary>
public static class StubUpstreams
{
    public static void MapStubUpstreams(this IEndpointRouteBuilder app)
    {
        var stubs = app.MapGroup("/internal");
        stubs.MapGet("/prices/{sku}", async (string sku, IOptions<ShopOptions> options, CancellationToken ct) =>
        {
            await Task.Delay(options.Value.UpstreamDelayMs, ct);
            return Results.Ok(new PriceQuote(sku, 10m + sku.Length));
        });
        stubs.MapGet("/carriers/{carrier}", async (string carrier, IOptions<ShopOptions> options, CancellationToken ct) =>
        {
            await Task.Delay(options.Value.UpstreamDelayMs, ct);
            return Results.Ok(new CarrierQuote(carrier, 4.99m + carrier.Length));
        });
        stubs.MapGet("/geo/{ip}", async (string ip, IOptions<ShopOptions> options, CancellationToken ct) =>
        {
            await Task.Delay(options.Value.UpstreamDelayMs, ct);
            return Results.Ok(new GeoLocation(ip, "NL"));
        });
    }
}

public sealed record PriceQuote(string Sku, decimal Price);

public sealed record CarrierQuote(string Carrier, decimal Price);

public sealed record GeoLocation(string Ip, string Country);
