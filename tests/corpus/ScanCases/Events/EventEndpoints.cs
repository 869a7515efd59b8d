using Microsoft.Extensions.Caching.Memory;
using ScanCases.Features;

namespace ScanCases.Events;

public static class EventEndpoints
{
    public static IServiceCollection AddEvents(this IServiceCollection services) =>
        services.AddSingleton<EventCatalog>().AddSingleton<EventArchive>().AddSingleton<SeatingClient>().AddScoped<SeatAvailability>();

    public static void MapEvents(this IEndpointRouteBuilder app)
    {
        var events = app.MapGroup("/api/events");
        events.MapGet("/{id:int}", (int id, EventCatalog catalog) => catalog.Find(id) is { } found ? Results.Ok(found) : Results.NotFound());
        events.MapGet("/{id:int}/overview", async (int id, EventCatalog catalog, SeatingClient seating, CancellationToken ct) =>
        {
            var details = catalog.DetailsAsync(id, ct);
            var seats = seating.FreeSeatsAsync(id, ct);
            await Task.WhenAll(details, seats);
            return Results.Ok(new { details = details.Result, freeSeats = seats.Result });
        });
        events.MapGet("/featured", async (IMemoryCache cache, EventCatalog catalog, FeatureFlags flags, CancellationToken ct) =>
        {
            var featured = cache.GetOrCreate("featured", entry =>
            {
                entry.AbsoluteExpirationRelativeToNow = TimeSpan.FromMinutes(5);
                return catalog.Upcoming(flags.IsOn("big-carousel") ? 12 : 6);
            });
            await Task.Yield();
            ct.ThrowIfCancellationRequested();
            return Results.Ok(featured);
        });
        events.MapGet("/{id:int}/seats", (int id, SeatAvailability seats) => Results.Ok(new { id, free = seats.FreeSeats(id) }));
    }
}
