using ShopApp.Corpus;

namespace ShopApp.Catalog;

public static class CatalogEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("catalog-sleep", "GET", "/api/catalog/42", "/api/catalog/{id}",
            "Catalog.SupplierFeed.Throttle", "Thread.Sleep", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/catalog/{id} handler", "Catalog/CatalogEndpoints.cs", "var product = products.Get(id);"),
                    new("ProductService.Get", "Catalog/CatalogEndpoints.cs", "var stock = supplier.StockOf(id);"),
                    new("SupplierFeed.StockOf", "Catalog/CatalogEndpoints.cs", "Throttle();"),
                    new("SupplierFeed.Throttle", "Catalog/CatalogEndpoints.cs", "private static void Throttle() => Thread.Sleep(Spacing);"),
                ],
            },
        ExpectedCulprit.Healthy("catalog-search", "GET", "/api/catalog/search?q=shoes", "/api/catalog/search", Place.MinimalApi),
    ];

    public static IServiceCollection AddCatalog(this IServiceCollection services) =>
        services.AddSingleton<SupplierFeed>().AddScoped<ProductService>();

    public static void MapCatalog(this IEndpointRouteBuilder app)
    {
        var catalog = app.MapGroup("/api/catalog");
        catalog.MapGet("/search", async (string q, ProductService products, CancellationToken ct) =>
            Results.Ok(await products.SearchAsync(q, ct)));
        catalog.MapGet("/{id:int}", (int id, ProductService products) =>
        {
            var product = products.Get(id);
            return product is null ? Results.NotFound() : Results.Ok(product);
        });
    }
}

public sealed record Product(int Id, string Name, decimal Price, int Stock);

public sealed class ProductService(SupplierFeed supplier)
{
    public Product? Get(int id)
    {
        if (id <= 0)
        {
            return null;
        }
        var stock = supplier.StockOf(id);
        return new Product(id, $"Product {id}", 19.99m, stock);
    }

    public async Task<IReadOnlyList<Product>> SearchAsync(string query, CancellationToken ct)
    {
        var stock = await supplier.StockOfAsync(query.Length, ct);
        return [new Product(1, query + " (blue)", 29.99m, stock), new Product(2, query + " (red)", 31.50m, stock)];
    }
}

/// <summary>The supplier's stock feed: it allows a few calls per second, so calls are spaced out.</summary>
public sealed class SupplierFeed
{
    private static readonly TimeSpan Spacing = TimeSpan.FromMilliseconds(300);

    public int StockOf(int productId)
    {
        Throttle();
        return productId % 17;
    }

    public async Task<int> StockOfAsync(int productId, CancellationToken ct)
    {
        await Task.Delay(Spacing, ct);
        return productId % 17;
    }

    private static void Throttle() => Thread.Sleep(Spacing);
}
