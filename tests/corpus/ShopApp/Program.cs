using ShopApp.Accounts;
using ShopApp.Availability;
using ShopApp.Catalog;
using ShopApp.Content;
using ShopApp.Customers;
using ShopApp.Documents;
using ShopApp.Fx;
using ShopApp.Infrastructure;
using ShopApp.Integration;
using ShopApp.Inventory;
using ShopApp.Loyalty;
using ShopApp.Notifications;
using ShopApp.Orders;
using ShopApp.Pages.Invoices;
using ShopApp.Pricing;
using ShopApp.Quotes;
using ShopApp.Recommendations;
using ShopApp.Reports;
using ShopApp.Shipping;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddControllers();
builder.Services.AddRazorPages();
builder.Services.AddProblemDetails();
builder.Services.Configure<ShopOptions>(builder.Configuration.GetSection("Shop"));

builder.Services.AddSingleton<UpstreamAddress>();
builder.Services.AddHttpClient<PriceClient>(UpstreamAddress.Configure);
builder.Services.AddHttpClient<CarrierClient>(UpstreamAddress.Configure);
builder.Services.AddHttpClient<GeoClient>(UpstreamAddress.Configure);

builder.Services.AddCatalog();
builder.Services.AddOrders();
builder.Services.AddInventory();
builder.Services.AddReports();
builder.Services.AddIntegration();
builder.Services.AddCustomers(builder.Configuration);
builder.Services.AddFx();
builder.Services.AddAccounts();
builder.Services.AddNotifications();
builder.Services.AddLoyalty();
builder.Services.AddQuotes();
builder.Services.AddAvailability();
builder.Services.AddSingleton<PdfRenderer>().AddSingleton<FontStore>();
builder.Services.AddSingleton<PricingService>();
builder.Services.AddScoped<ShippingService>();
builder.Services.AddSingleton<RecommendationEngine>();
builder.Services.AddSingleton<TenantDirectory>();
builder.Services.AddSingleton<BannerCache>();
builder.Services.AddSingleton<InvoiceRenderer>();

var app = builder.Build();

app.UseExceptionHandler();
app.UseMiddleware<RequestTimingMiddleware>();
app.UseWhen(
    context => context.Request.Path.StartsWithSegments("/legacy"),
    legacy => legacy.UseMiddleware<TenantMiddleware>());

app.MapGet("/health", () => Results.Ok(new { status = "ok" }));
app.MapStubUpstreams();
app.MapCatalog();
app.MapPricing();
app.MapInventory();
app.MapBanners();
app.MapLicenses();
app.MapShipping();
app.MapIntegration();
app.MapCustomers();
app.MapFx();
app.MapNotifications();
app.MapLoyalty();
app.MapRecommendations();
app.MapQuotes();
app.MapAvailability();
app.MapLegacyTenants();
app.MapControllers();
app.MapRazorPages();

app.Run();
