using Microsoft.AspNetCore.Mvc.RazorPages;

namespace ScanCases.Pages.Venues;

public sealed class SeatsModel(ScanCases.Venues.VenueSeating seating) : PageModel
{
    public ScanCases.Venues.SeatLayout Layout { get; private set; } = null!;

    public void OnGet(int id) => Layout = seating.Layout(id);
}
