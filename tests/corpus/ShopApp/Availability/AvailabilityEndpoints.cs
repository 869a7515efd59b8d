using Microsoft.Extensions.Options;
using ShopApp.Corpus;
using ShopApp.Infrastructure;
using ShopApp.Integration;

namespace ShopApp.Availability;

public static class AvailabilityEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // After its first await the handler resumes on a pool thread with nothing of ASP.NET Core below it, and reads
        // the mainframe's socket synchronously: no wait event is raised, so only the handler in the chain names the endpoint.
        ExpectedCulprit.Blocking("availability-continuation", "GET", "/api/availability/SKU-1001", "/api/availability/{sku}",
            "Integration.MainframeGateway.Query", "NetworkStream.Read", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/availability/{sku} handler", "Availability/AvailabilityEndpoints.cs", "var level = mainframe.Query(\"STOCK \" + sku);"),
                    new("MainframeGateway.Query", "Integration/Mainframe.cs", "var read = stream.Read(buffer);"),
                ],
                RunsIn = "continuation",
            },
    ];

    public static IServiceCollection AddAvailability(this IServiceCollection services) => services.AddSingleton<ReservationBook>();

    public static void MapAvailability(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/availability/{sku}", async (string sku, ReservationBook reservations, MainframeGateway mainframe, CancellationToken ct) =>
        {
            var reserved = await reservations.CountAsync(sku, ct);
            var level = mainframe.Query("STOCK " + sku);
            return Results.Ok(new { sku, level, reserved });
        });
}

/// <summary>Open reservations, kept by the order service.</summary>
public sealed class ReservationBook(IOptions<ShopOptions> options)
{
    public async Task<int> CountAsync(string sku, CancellationToken ct)
    {
        await Task.Delay(options.Value.UpstreamDelayMs / 10, ct);
        return sku.Length % 4;
    }
}
