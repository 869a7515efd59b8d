using Microsoft.AspNetCore.Mvc.RazorPages;
using Shop.Web.Services;

namespace Shop.Web.Pages.Orders;

public sealed class DetailsModel(OrderService orders) : PageModel
{
    public int Id { get; private set; }

    public void OnGet(int id)
    {
        Id = id;
        _ = orders.Load(id);
    }

    public async Task OnPostCancelAsync(int id)
    {
        await Task.Delay(1);
        Id = id;
    }
}
