using Microsoft.Extensions.Options;
using ShopApp.Infrastructure;

namespace ShopApp.Orders;

public static class OrderServices
{
    public static IServiceCollection AddOrders(this IServiceCollection services) =>
        services.AddSingleton<CartStore>().AddSingleton<OrderRepository>().AddScoped<OrderService>();
}

public sealed record Cart(int Id, IReadOnlyList<string> Items);

public sealed record OrderSummary(int Id, string Status, decimal Total);

/// <summary>Carts live in a remote session store.</summary>
public sealed class CartStore(IOptions<ShopOptions> options)
{
    public async Task<Cart> GetCartAsync(int id)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return new Cart(id, ["SKU-1001", "SKU-2002"]);
    }
}

public sealed class OrderService(OrderRepository repository)
{
    public async Task<OrderSummary?> GetSummaryAsync(int id, CancellationToken ct)
    {
        var order = await repository.LoadAsync(id, ct);
        return order is null ? null : new OrderSummary(order.Value.Id, order.Value.Status, order.Value.Total);
    }
}

public sealed class OrderRepository(IOptions<ShopOptions> options)
{
    public async Task<(int Id, string Status, decimal Total)?> LoadAsync(int id, CancellationToken ct)
    {
        await Task.Delay(options.Value.UpstreamDelayMs, ct);
        return id > 0 ? (id, "shipped", 42.50m) : null;
    }
}
