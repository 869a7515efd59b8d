using MediatR;
using Microsoft.AspNetCore.Authorization;
using Microsoft.EntityFrameworkCore;
using Shop.Data;
using Shop.Web.Controllers;
using Shop.Web.Endpoints;
using Shop.Web.Infrastructure;
using Shop.Web.Services;

var builder = WebApplication.CreateBuilder(args);

// Startup work before the host serves anything blocks nobody's request: not a finding.
var seedFile = Path.Combine(AppContext.BaseDirectory, "seed.txt");
var seed = File.Exists(seedFile) ? File.ReadAllText(seedFile) : "";
Thread.Sleep(10);

builder.Services.AddControllersWithViews(options => options.Filters.Add<GlobalTimingFilter>());
builder.Services.AddRazorPages();
builder.Services.AddSignalR();
builder.Services.AddHealthChecks().AddCheck<DatabaseHealthCheck>("db");
builder.Services.AddDbContext<ShopDb>();
GC.KeepAlive(seed);
builder.Services.AddSingleton(NpgsqlDataSourceFactory.Create(builder.Configuration));
builder.Services.AddSingleton<IRatesProvider>(sp => RatesLoader.Load(sp.GetRequiredService<ILogger<RatesLoader>>()));
builder.Services.AddScoped<IStockStore>(sp => new FileStockStore("/var/stock"));
builder.Services.AddSingleton<IStockStore, CachedStockStore>();
builder.Services.AddScoped<OrderService>();
builder.Services.AddSingleton<SlowCache>();
builder.Services.AddSingleton<Counter>();
builder.Services.AddSingleton<IAuthorizationHandler, RegionHandler>();
builder.Services.AddHostedService<CacheRefresher>();
builder.Services.AddHostedService<CatalogWarmer>();
builder.Services.AddTransient<SigningHandler>();
builder.Services.AddHttpClient("partner").AddHttpMessageHandler<SigningHandler>();
builder.Services.AddSingleton<IMediator, Mediator>(sp => new Mediator(sp.GetService));
builder.Services.AddSingleton<Flusher>();

var app = builder.Build();

app.UseMiddleware<RequestLogMiddleware>();
app.Map("/admin", admin => admin.UseMiddleware<AdminAuditMiddleware>());
app.Use(async (context, next) =>
{
    FeatureFlags.Refresh();
    await next(context);
});

app.MapGet("/ping", () => "pong");
app.MapHealthChecks("/healthz");
app.MapHub<ChatHub>("/hubs/chat");
app.MapControllers();
app.MapControllerRoute("default", "{controller=Home}/{action=Index}/{id?}");
app.MapRazorPages();
app.MapOrders();
app.MapShopApi();

app.Run();
