using Npgsql;
using Shop.Data;
using Shop.Web.Services;

namespace Shop.Web.Endpoints;

public static class OrderEndpoints
{
    public static void MapOrders(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("/api");
        var orders = api.MapGroup("/orders");
        orders.MapGet("/{id:int}", GetOrder);
        orders.MapPost("/", async (Order order, OrderService service) => Results.Ok(await service.SaveAsync(order)));
        orders.MapGet("/{id:int}/lines", (int id, OrderService service) => service.LinesOf(id));
        orders.MapGet("/{id:int}/lines-async", async (int id, OrderService service) => await service.LinesOfAsync(id));
        MapReports(api.MapGroup("/reports"));
    }

    private static void MapReports(RouteGroupBuilder reports) =>
        reports.MapGet("/daily", (Repo<Order> repo) => repo.Find(1));

    private static IResult GetOrder(int id, OrderService service) =>
        service.Load(id) is { } order ? Results.Ok(order) : Results.NotFound();
}

public static class ShopApi
{
    public static void MapShopApi(this IEndpointRouteBuilder app)
    {
        app.MapGet("/memory", () => new[] { 1, 2, 3 }.AsQueryable().Where(x => x > 1).ToList());
        app.MapGet("/quotes/cheapest", (QuoteService quotes) => quotes.CheapestAsync());
        app.MapGet("/quotes/known", (QuoteService quotes) => quotes.Known());
        app.MapGet("/quotes/fast", (QuoteService quotes) => quotes.FastPathAsync());
        app.MapGet("/offload", async () => await Task.Run(() => Checksum.Compute(42)));
        app.MapGet("/offload-db", async (NpgsqlDataSource dataSource) => await Task.Run(() =>
        {
            using var connection = dataSource.OpenConnection();
            return connection.State.ToString();
        }));
        app.MapGet("/reprice", (PriceService prices) => prices.RepriceAll());
        app.MapGet("/recalculate", (RecalculationService recalculation) => recalculation.Start());
        app.MapPost("/upload", (HttpRequest request) => Upload.Read(request));
        app.MapGet("/buffer", () => Buffers.RoundTrip());
        app.MapGet("/counter", (Counter counter) => counter.Next());
        app.MapGet("/cache/{key}", (SlowCache cache, string key) => cache.Get(key));
        app.MapGet("/legacy", () => Legacy.Sleep());
        app.MapGet("/branch/{id:int}", (int id, Branchy branchy) => branchy.Get(id));
        app.MapGet("/soap", (SoapClient soap) => soap.Call("GetStock"));
        app.MapGet("/rates/{currency}", (string currency, IRatesProvider rates) => rates.Rate(currency));
        app.MapMethods("/stock/{sku}", ["GET", "HEAD"], StockEndpoint.Handle);
    }
}

public static class StockEndpoint
{
    public static int Handle(string sku, IStockStore stock) => stock.Count(sku);
}
