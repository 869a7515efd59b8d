using Microsoft.EntityFrameworkCore;
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

public sealed record GateCount(string Gate, int CheckIns);

public sealed class TicketRepository(BoxOfficeDb db)
{
    public IReadOnlyList<Ticket> ForEvent(int eventId) =>
        db.Tickets.Where(t => t.EventId == eventId).OrderBy(t => t.Seat).ToList();

    /// <summary>An event called off: its tickets go (the PSP refunds them on its side).</summary>
    public async Task<int> ReleaseEventAsync(int eventId)
    {
        db.Tickets.RemoveRange(OfEvent(eventId));
        return await db.SaveChangesAsync();
    }

    private IQueryable<Ticket> OfEvent(int eventId) => db.Tickets.Where(ticket => ticket.EventId == eventId);
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

    /// <summary>How many of the event's tickets each gate has scanned, for the gate staff's tablets.</summary>
    public async Task<IReadOnlyList<GateCount>> AtGatesAsync(int eventId)
    {
        var tickets = await db.Tickets.Where(ticket => ticket.EventId == eventId).ToListAsync();
        return tickets
            .Join(db.CheckIns, t => t.Id, c => c.TicketId, (t, c) => c.Gate)
            .GroupBy(gate => gate)
            .Select(g => new GateCount(g.Key, g.Count()))
            .ToList();
    }
}
