using ScanCases.Infrastructure;

namespace ScanCases.Tickets;

public sealed class Ticket
{
    public int Id { get; set; }

    public int EventId { get; set; }

    public string Seat { get; set; } = "";

    public string Holder { get; set; } = "";
}

public sealed class CheckIn
{
    public int Id { get; set; }

    public int TicketId { get; set; }

    public string Gate { get; set; } = "";

    public DateTimeOffset At { get; set; }
}

public static class TicketServiceCollection
{
    public static IServiceCollection AddTickets(this IServiceCollection services) =>
        services.AddScoped<TicketRepository>().AddScoped<CheckInService>().AddSingleton<RenderSlots>().AddSingleton<TicketPdfRenderer>()
            .AddSingleton(TimeProvider.System);
}

public sealed class TicketRepository(BoxOfficeDb db)
{
    public IReadOnlyList<Ticket> ForEvent(int eventId) =>
        db.Tickets.Where(t => t.EventId == eventId).OrderBy(t => t.Seat).ToList();
}

public sealed class CheckInService(BoxOfficeDb db, TimeProvider clock)
{
    public CheckIn CheckIn(int ticketId, string gate)
    {
        var checkIn = new CheckIn { TicketId = ticketId, Gate = gate, At = clock.GetUtcNow() };
        db.CheckIns.Add(checkIn);
        db.SaveChanges();
        return checkIn;
    }
}
