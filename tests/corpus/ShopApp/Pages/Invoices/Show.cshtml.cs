using Microsoft.AspNetCore.Mvc.RazorPages;
using Microsoft.Extensions.Options;
using ShopApp.Corpus;
using ShopApp.Infrastructure;

namespace ShopApp.Pages.Invoices;

public sealed class ShowModel(InvoiceRenderer renderer) : PageModel
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("invoice-razor", "GET", "/invoices/31", "/invoices/{id:int}",
            "Pages.Invoices.InvoiceRenderer.Load", "GetAwaiter().GetResult()", Place.RazorPage)
            with
            {
                Chain =
                [
                    new("ShowModel.OnGet", "Pages/Invoices/Show.cshtml.cs", "public void OnGet(int id) =>"),
                    new("InvoiceRenderer.Load", "Pages/Invoices/Show.cshtml.cs", "public Invoice Load(int id) =>"),
                ],
            },
    ];

    public Invoice Invoice { get; private set; } = null!;

    public void OnGet(int id) => Invoice = renderer.Load(id);
}

public sealed record Invoice(string Number, decimal Total);

public sealed class InvoiceRenderer(IOptions<ShopOptions> options)
{
    public Invoice Load(int id) => FetchAsync(id).GetAwaiter().GetResult();

    private async Task<Invoice> FetchAsync(int id)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return new Invoice($"INV-{id:00000}", 99.95m);
    }
}
