namespace Orders;

internal sealed record Order(int Id, int Sku, string Status);

internal sealed record NewOrder(int Sku);

/// <summary>The application's order logic over a store that still has a synchronous client.</summary>
internal sealed class OrderService(LegacyOrderStore store, ILogger<OrderService> logger)
{
    public Order Find(int id)
    {
        var row = store.Load(id);
        return new Order(id, row.Sku, row.Status);
    }

    public async Task<Order> PlaceAsync(NewOrder order, CancellationToken ct)
    {
        if (order.Sku <= 0)
        {
            throw new BadHttpRequestException("sku must be positive");
        }
        var id = await store.InsertAsync(ct);
        logger.LogDebug("placed order {Id}", id);
        return new Order(id, order.Sku, "placed");
    }
}

/// <summary>
/// A data access layer with a synchronous driver call at the bottom (the kind that blocks pool threads) and an
/// asynchronous one. The latency is configuration (Store:LatencyMs), like a remote database's round trip.
/// </summary>
internal sealed class LegacyOrderStore(IConfiguration configuration)
{
    private int _nextId = 1000;

    private int LatencyMs => configuration.GetValue("Store:LatencyMs", 1000);

    public (int Sku, string Status) Load(int id) => ReadRow(id);

    public async Task<int> InsertAsync(CancellationToken ct)
    {
        await Task.Delay(LatencyMs / 10, ct);
        return Interlocked.Increment(ref _nextId);
    }

    private (int Sku, string Status) ReadRow(int id)
    {
        var reply = RoundTrip(id);
        return (reply % 100, "shipped");
    }

    // The driver's synchronous round trip: the calling thread waits for the database.
    private int RoundTrip(int id)
    {
        Thread.Sleep(LatencyMs);
        return id;
    }
}
