using Microsoft.AspNetCore.Mvc;

namespace FixProbes.Orders;

[ApiController]
[Route("api/orders")]
public sealed class OrdersController(OrderService orders) : ControllerBase
{
    [HttpGet("{id:int}")]
    public ActionResult<string> Get(int id) => orders.Find(id) is { } order ? order : NotFound("no such order");

    [HttpPost]
    public ActionResult<int> Create(string customer) => orders.Place(customer);
}
