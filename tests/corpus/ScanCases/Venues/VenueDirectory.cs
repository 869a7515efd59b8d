using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Venues;

/// <summary>The venue directory service: venues, their cities and capacities.</summary>
public sealed class VenueDirectory(IOptions<BoxOfficeOptions> options)
{
    private readonly Dictionary<int, Venue> _known = [];

    /// <summary>Loads the venues the box office sells for; run once at start-up.</summary>
    public async Task SeedAsync()
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        _known[1] = new Venue(1, "Concertgebouw", "Amsterdam", 2037);
        _known[2] = new Venue(2, "De Doelen", "Rotterdam", 2200);
        _known[3] = new Venue(3, "TivoliVredenburg", "Utrecht", 1700);
    }

    public async Task<Venue?> LookupAsync(int id)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return _known.GetValueOrDefault(id);
    }
}

/// <summary>Seat layouts from the seating partner.</summary>
public sealed class VenueSeating(IOptions<BoxOfficeOptions> options)
{
    public SeatLayout Layout(int venueId) => FetchLayoutAsync(venueId).Result;

    private async Task<SeatLayout> FetchLayoutAsync(int venueId)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return new SeatLayout(venueId, Rows: 10 + venueId, SeatsPerRow: 20);
    }
}

public sealed record SeatLayout(int VenueId, int Rows, int SeatsPerRow);
