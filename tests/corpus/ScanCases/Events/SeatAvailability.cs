using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Events;

/// <summary>Free seats per event, from the seating partner's live view (held in memory, refreshed by the partner's pushes).</summary>
public sealed class SeatAvailability(SeatingClient seating)
{
    public int FreeSeats(int eventId) => Retry.Execute(() => seating.FreeSeatsNow(eventId));
}

/// <summary>The seating partner: a live in-memory view, plus its API for a fresh count.</summary>
public sealed class SeatingClient(IOptions<BoxOfficeOptions> options)
{
    private long _pushes;

    /// <summary>The partner pushes a new seat map every few seconds; a read during the swap is retried.</summary>
    public int FreeSeatsNow(int eventId)
    {
        var push = Interlocked.Increment(ref _pushes);
        if (push % 10_000 == 0)
        {
            throw new TransientPartnerException("seat map is being swapped");
        }
        return 500 - eventId % 97;
    }

    public async Task<int> FreeSeatsAsync(int eventId, CancellationToken ct)
    {
        await Task.Delay(options.Value.UpstreamDelayMs, ct);
        return 500 - eventId % 97;
    }
}
