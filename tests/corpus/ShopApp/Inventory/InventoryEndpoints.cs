using ShopApp.Corpus;

namespace ShopApp.Inventory;

public static class InventoryEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("stock-wait", "GET", "/api/stock/SKU-1001", "/api/stock/{sku}",
            "Inventory.WarehouseClient.Refresh", "Task.Wait", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/stock/{sku} handler", "Inventory/InventoryEndpoints.cs", "available = stock.Available(sku)"),
                    new("StockService.Available", "Inventory/InventoryEndpoints.cs", "var level = warehouse.Refresh(sku);"),
                    new("WarehouseClient.Refresh", "Inventory/InventoryEndpoints.cs", "fetch.Wait();"),
                ],
            },
        ExpectedCulprit.Blocking("inventory-lock", "GET", "/api/inventory/SKU-1001/reserve", "/api/inventory/{sku}/reserve",
            "Inventory.InventoryLedger.Reserve", "lock (Monitor.Enter)", Place.MinimalApi, pool: "lock-contention")
            with
            {
                Chain =
                [
                    new("GET /api/inventory/{sku}/reserve handler", "Inventory/InventoryEndpoints.cs", "ledger.Reserve(sku, 1) ?"),
                    new("InventoryLedger.Reserve", "Inventory/InventoryEndpoints.cs", "lock (_sync)"),
                ],
            },
    ];

    public static IServiceCollection AddInventory(this IServiceCollection services) =>
        services.AddSingleton<WarehouseClient>().AddScoped<StockService>().AddSingleton<InventoryLedger>();

    public static void MapInventory(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/stock/{sku}", (string sku, StockService stock) => Results.Ok(new { sku, available = stock.Available(sku) }));
        app.MapGet("/api/inventory/{sku}/reserve", (string sku, InventoryLedger ledger) =>
            ledger.Reserve(sku, 1) ? Results.Ok(new { sku, reserved = 1 }) : Results.Conflict());
    }
}

public sealed class StockService(WarehouseClient warehouse)
{
    public int Available(string sku)
    {
        var level = warehouse.Refresh(sku);
        return Math.Max(0, level - 2);
    }
}

/// <summary>The warehouse system's API.</summary>
public sealed class WarehouseClient
{
    private readonly Dictionary<string, int> _levels = new(StringComparer.Ordinal);

    public int Refresh(string sku)
    {
        var fetch = FetchLevelAsync(sku);
        fetch.Wait();
        lock (_levels)
        {
            _levels[sku] = fetch.Result;
            return fetch.Result;
        }
    }

    private static async Task<int> FetchLevelAsync(string sku)
    {
        await Task.Delay(250);
        return 20 + sku.Length;
    }
}

/// <summary>
/// Reservations in memory, each one journalled to disk before the lock is released (the journal's fsync takes about
/// 100 ms on the shared volume), so a reservation waits for every reservation ahead of it.
/// </summary>
public sealed class InventoryLedger
{
    private readonly object _sync = new();
    private readonly Dictionary<string, int> _reserved = new(StringComparer.Ordinal);

    public bool Reserve(string sku, int quantity)
    {
        lock (_sync)
        {
            _reserved.TryGetValue(sku, out var current);
            _reserved[sku] = current + quantity;
            Journal.Append(sku, current + quantity);
            return true;
        }
    }
}

internal static class Journal
{
    public static void Append(string sku, int reserved)
    {
        // Stands for the journal's write and fsync on a slow volume.
        Thread.Sleep(100);
        GC.KeepAlive(sku + reserved);
    }
}
