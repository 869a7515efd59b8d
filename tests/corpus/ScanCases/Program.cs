using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using ScanCases.Accounts;
using ScanCases.Admin;
using ScanCases.Events;
using ScanCases.Exports;
using ScanCases.Features;
using ScanCases.Health;
using ScanCases.Infrastructure;
using ScanCases.Partners;
using ScanCases.Payments;
using ScanCases.Pricing;
using ScanCases.Reports;
using ScanCases.Search;
using ScanCases.Tickets;
using ScanCases.Venues;
using ScanCases.Webhooks;

var builder = WebApplication.CreateBuilder(args);

// The webhook parser and the seat-map download came from the .NET Framework site and still use synchronous streams.
builder.WebHost.ConfigureKestrel(kestrel => kestrel.AllowSynchronousIO = true);

builder.Services.AddControllers();
builder.Services.AddRazorPages();
builder.Services.AddProblemDetails();
builder.Services.AddExceptionHandler<DatabaseUnavailableHandler>();
builder.Services.AddMemoryCache();
builder.Services.Configure<BoxOfficeOptions>(builder.Configuration.GetSection("BoxOffice"));
builder.Services.AddSingleton<OwnAddress>();

builder.Services.AddBoxOfficeDatabase(builder.Configuration);
builder.Services.AddWarmup();
builder.Services.AddFeatureFlags();
builder.Services.AddEvents();
builder.Services.AddPayments();
builder.Services.AddAccounts();
builder.Services.AddTickets();
builder.Services.AddVenues();
builder.Services.AddPricing();
builder.Services.AddReports();
builder.Services.AddPartners();
builder.Services.AddSearch();
builder.Services.AddExports();
builder.Services.AddSingleton<RequestStats>();
builder.Services.AddSingleton<AuditSpooler>();
builder.Services.AddHealthChecks().AddCheck<MailRelayHealthCheck>("mail-relay", tags: ["ready"]);

var app = builder.Build();

// Before the host starts nothing is served yet: these waits hold no request.
app.Services.GetRequiredService<VenueDirectory>().SeedAsync().GetAwaiter().GetResult();
BoxOfficeDatabase.EnsureSchema(app.Services);

app.UseExceptionHandler();
app.UseMiddleware<WarmupGateMiddleware>();
app.UseMiddleware<RequestStatsMiddleware>();
app.UseWhen(
    context => context.Request.Path.StartsWithSegments("/api/webhooks"),
    webhooks => webhooks.UseMiddleware<WebhookSignatureMiddleware>());

app.MapHealthChecks("/health/live", new HealthCheckOptions { Predicate = _ => false });
app.MapHealthChecks("/health/ready", new HealthCheckOptions { Predicate = check => check.Tags.Contains("ready") });
app.MapPartnerStubs();
app.MapEvents();
app.MapVenues();
app.MapPricing();
app.MapReports();
app.MapPartners();
app.MapSearch();
app.MapExports();
app.MapAdmin();
app.MapWebhooks();
app.MapPspNotices();
app.MapControllers();
app.MapRazorPages();

app.Run();
