using FixProbes.Infrastructure;

namespace FixProbes.Inventory;

/// <summary>Reservations against the warehouse: one at a time, each confirmed before it counts.</summary>
public sealed class StockLedger(ActivityLog activity)
{
    private readonly object _gate = new();
    private int _reserved;

    public int Reserve(string sku, int quantity)
    {
        Monitor.Enter(_gate);
        try
        {
            ConfirmWithWarehouse(sku).Wait();
            _reserved += quantity;
            activity.Record("stock-reserved");
            return _reserved;
        }
        finally
        {
            Monitor.Exit(_gate);
        }
    }

    private static async Task ConfirmWithWarehouse(string sku) => await Task.Delay(5 + (sku.Length % 3));
}
