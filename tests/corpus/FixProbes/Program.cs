using FixProbes.Attachments;
using FixProbes.Catalog;
using FixProbes.Infrastructure;
using FixProbes.Inventory;
using FixProbes.Notifications;
using FixProbes.Orders;
using FixProbes.Pricing;
using FixProbes.Quotes;
using FixProbes.Reports;
using FixProbes.Sessions;
using FixProbes.Shipping;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddControllers();
builder.Services.AddSingleton<ActivityLog>();
builder.Services.AddSingleton<StockLedger>();
builder.Services.AddSingleton<CatalogSource>();
builder.Services.AddSingleton<CatalogCache>();
builder.Services.AddSingleton<PriceFeed>();
builder.Services.AddSingleton<QuoteService>();
builder.Services.AddSingleton<RateShopper>();
builder.Services.AddSingleton<TenantReports>();
builder.Services.AddSingleton<ReceiptPrinter>();
builder.Services.AddSingleton<LegacySession>();
builder.Services.AddSingleton<MarketRates>();
builder.Services.AddSingleton<PriceFormatter>();
builder.Services.AddSingleton<OrderArchive>();
builder.Services.AddSingleton<OrderStore>();
builder.Services.AddSingleton<OrderRepository>();
builder.Services.AddSingleton<OrderService>();
builder.Services.AddSingleton<DailyReport>();
builder.Services.AddSingleton<AttachmentStore>();
builder.Services.AddSingleton<NotificationQueue>();
builder.Services.AddHostedService<NotificationSender>();

var app = builder.Build();

// Attachments are staged beside the app until it restarts: a start begins with none.
var staging = Path.Combine(AppContext.BaseDirectory, "attachments");
if (Directory.Exists(staging))
{
    Directory.Delete(staging, recursive: true);
}
app.MapControllers();

app.MapPost("/stock/{sku}/reserve", (string sku, int quantity, StockLedger ledger) => Results.Ok(new { sku, reserved = ledger.Reserve(sku, quantity) }));
app.MapGet("/catalog/{category}/refresh", (string category, CatalogCache cache) => cache.Refresh(category));
app.MapGet("/quotes/{sku}", (string sku, string? scenario, QuoteService quotes) => quotes.Quote(sku, scenario));
app.MapGet("/shipping/rates", (decimal weight, int? failing, RateShopper shopper) => shopper.Cheapest(weight, failing ?? 0));
app.MapGet("/tenants/{tenant}/report", (string tenant, TenantReports reports) => reports.Summary(tenant));
app.MapGet("/receipts/{orderId:int}", (int orderId, ReceiptPrinter printer) => printer.Print(orderId));
app.MapGet("/legacy/session", (LegacySession session) => session.Run());
app.MapGet("/prices/{market}", (string market, decimal amount, PriceFormatter formatter) => formatter.Format(amount, market));
app.MapPost("/orders/{id:int}/archive", (int id, OrderArchive archive) => Results.Ok(archive.Archive(id)));
app.MapGet("/reports/daily", async (DailyReport report) => await Task.Run(() => report.Build()));
app.MapPost("/attachments/{name}", (string name, int size, AttachmentStore store) => store.Save(name, size));
app.MapGet("/attachments", (AttachmentStore store) => store.List());
app.MapPost("/notifications", (string to, NotificationQueue queue) => Results.Accepted(value: queue.Enqueue(to)));
app.MapGet("/activity", (ActivityLog activity) => activity.Snapshot());

app.Run();
