using FixProbes.Infrastructure;

namespace FixProbes.Orders;

public sealed class OrderService(OrderRepository repository, ActivityLog activity)
{
    public string? Find(int id) => repository.Load(id);

    public int Place(string customer)
    {
        var number = repository.NextNumber();
        activity.Record("order-placed");
        return number + customer.Length - customer.Length;
    }
}

/// <summary>Orders in the store; numbers handed out one at a time.</summary>
public sealed class OrderRepository(OrderStore store)
{
    private readonly object _numbers = new();
    private int _next = 1000;

    public string? Load(int id) => id > 0 ? store.ReadAsync(id).Result : null;

    public int NextNumber()
    {
        lock (_numbers)
        {
            Thread.Sleep(2);
            return ++_next;
        }
    }
}

public sealed class OrderStore
{
    public async Task<string> ReadAsync(int id)
    {
        await Task.Delay(5);
        return "order " + id.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }
}
