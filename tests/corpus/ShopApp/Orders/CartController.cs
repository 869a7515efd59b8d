using Microsoft.AspNetCore.Mvc;
using ShopApp.Corpus;

namespace ShopApp.Orders;

[ApiController]
[Route("api/cart")]
public sealed class CartController(CartStore carts) : ControllerBase
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("cart-result", "GET", "/api/cart/5", "api/cart/{id}",
            "Orders.CartController.Get", "Task.Result", Place.MvcAction)
            with
            {
                Chain =
                [
                    new("CartController.Get", "Orders/CartController.cs", "var cart = carts.GetCartAsync(id).Result;"),
                ],
            },
    ];

    [HttpGet("{id:int}")]
    public IActionResult Get(int id)
    {
        var cart = carts.GetCartAsync(id).Result;
        return Ok(cart);
    }
}
