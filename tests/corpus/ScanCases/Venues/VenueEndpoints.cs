using ScanCases.Infrastructure;

namespace ScanCases.Venues;

public static class VenueEndpoints
{
    public static IServiceCollection AddVenues(this IServiceCollection services) =>
        services.AddSingleton<VenueDirectory>().AddScoped<VenueService>().AddSingleton<SeatMapFiles>().AddSingleton<VenueSeating>();

    public static void MapVenues(this IEndpointRouteBuilder app)
    {
        var venues = app.MapGroup("/api/venues");
        venues.MapGet("/{id:int}", (int id, VenueService service) => service.Get(id) is { } venue ? Results.Ok(venue) : Results.NotFound());
        venues.MapGet("/{id:int}/seatmap.svg", (int id, HttpResponse response, SeatMapFiles maps) => maps.WriteTo(id, response));
    }
}

public sealed record Venue(int Id, string Name, string City, int Capacity);

public sealed class VenueService(VenueDirectory directory)
{
    public Venue? Get(int id) => id <= 0 ? null : AsyncHelper.RunSync(() => directory.LookupAsync(id));
}

/// <summary>Seat maps are SVG files drawn by the venues' designers, shipped with the app.</summary>
public sealed class SeatMapFiles
{
    private readonly string _folder = Path.Combine(AppContext.BaseDirectory, "SeatMaps");

    public void WriteTo(int venueId, HttpResponse response)
    {
        var path = Path.Combine(_folder, $"{venueId}.svg");
        if (!File.Exists(path))
        {
            response.StatusCode = StatusCodes.Status404NotFound;
            return;
        }
        response.ContentType = "image/svg+xml";
        using var file = File.OpenRead(path);
        file.CopyTo(response.Body);
    }
}
