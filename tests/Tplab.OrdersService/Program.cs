using Orders;

var builder = WebApplication.CreateBuilder(args);

// The team's own knob for the pool, read from configuration (ThreadPool__MinThreads in the environment).
if (builder.Configuration.GetValue<int?>("ThreadPool:MinThreads") is int min)
{
    ThreadPool.GetMinThreads(out _, out var io);
    ThreadPool.SetMinThreads(min, io);
}

builder.Services.AddSingleton<LegacyOrderStore>();
builder.Services.AddSingleton<OrderService>();

var app = builder.Build();

app.MapGet("/health", () => Results.Ok("healthy"));
app.MapGet("/orders/{id:int}", (int id, OrderService orders) => Results.Ok(orders.Find(id)));
app.MapPost("/orders", async (NewOrder order, OrderService orders, CancellationToken ct) =>
{
    var created = await orders.PlaceAsync(order, ct);
    return Results.Created($"/orders/{created.Id}", created);
});
app.MapGet("/pool", () =>
{
    ThreadPool.GetMinThreads(out var worker, out _);
    return Results.Ok(new { minWorkerThreads = worker });
});

app.Run();
