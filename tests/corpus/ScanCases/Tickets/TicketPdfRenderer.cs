using System.Text;

namespace ScanCases.Tickets;

/// <summary>Renders e-tickets with the licensed PDF engine, which allows a few documents at a time.</summary>
public sealed class TicketPdfRenderer(RenderSlots slots)
{
    public byte[] Render(int ticketId)
    {
        using (slots.Enter())
        {
            var page = new StringBuilder("%PDF-1.4\n");
            for (var line = 0; line < 20_000; line++)
            {
                page.Append("BT /F1 12 Tf 72 ").Append(720 - line * 3).Append(" Td (Ticket ").Append(ticketId).Append(") Tj ET\n");
            }
            return Encoding.ASCII.GetBytes(page.Append("%%EOF\n").ToString());
        }
    }
}

/// <summary>The engine's licence: four concurrent renders.</summary>
public sealed class RenderSlots : IDisposable
{
    private readonly SemaphoreSlim _slots = new(4, 4);

    public IDisposable Enter()
    {
        _slots.Wait();
        return new Slot(_slots);
    }

    public void Dispose() => _slots.Dispose();

    private sealed class Slot(SemaphoreSlim slots) : IDisposable
    {
        public void Dispose() => slots.Release();
    }
}
