using Microsoft.AspNetCore.Mvc;

namespace ScanCases.Tickets;

[ApiController]
[Route("api/tickets")]
public sealed class TicketsController(TicketRepository tickets, CheckInService checkIns) : ControllerBase
{
    [HttpGet]
    public ActionResult<IReadOnlyList<Ticket>> ForEvent([FromQuery] int eventId) => Ok(tickets.ForEvent(eventId));

    /// <summary>The gate scanners post each ticket they scan.</summary>
    [HttpPost("{id:int}/checkin")]
    public IActionResult CheckIn(int id, [FromQuery] string gate)
    {
        var checkIn = checkIns.CheckIn(id, gate);
        return Ok(new { checkIn.TicketId, checkIn.Gate, checkIn.At });
    }

    [HttpGet("gates")]
    public async Task<IActionResult> Gates([FromQuery] int eventId) => Ok(await checkIns.AtGatesAsync(eventId));

    /// <summary>The promoter called the event off.</summary>
    [HttpDelete]
    public async Task<IActionResult> Release([FromQuery] int eventId) => Ok(new { released = await tickets.ReleaseEventAsync(eventId) });
}

[ApiController]
[Route("api/tickets/{id:int}/pdf")]
public sealed class TicketPdfController(TicketPdfRenderer pdf) : ControllerBase
{
    [HttpGet]
    public IActionResult Get(int id) => File(pdf.Render(id), "application/pdf", $"ticket-{id}.pdf");
}
