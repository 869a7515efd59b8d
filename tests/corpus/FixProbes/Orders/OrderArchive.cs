using FixProbes.Infrastructure;

namespace FixProbes.Orders;

/// <summary>
/// Archives an order: copies it to the archive, waits for the replica to catch up, then records it. The record must
/// be written even when the client has gone away meanwhile.
/// </summary>
public sealed class OrderArchive(ActivityLog activity)
{
    public string Archive(int id)
    {
        activity.Record("archive-started");
        Thread.Sleep(300);
        activity.Record("archived");
        return "archived " + id.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }
}
