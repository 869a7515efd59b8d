using Microsoft.AspNetCore.Mvc;
using ShopApp.Corpus;

namespace ShopApp.Orders;

[ApiController]
[Route("api/orders")]
public sealed class OrdersController(OrderService orders) : ControllerBase
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Healthy("orders-summary", "GET", "/api/orders/12/summary", "api/orders/{id}/summary", Place.MvcAction),
    ];

    [HttpGet("{id:int}/summary")]
    public async Task<ActionResult<OrderSummary>> GetSummary(int id, CancellationToken ct)
    {
        var summary = await orders.GetSummaryAsync(id, ct);
        return summary is null ? NotFound() : summary;
    }
}
