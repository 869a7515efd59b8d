using ShopApp.Corpus;

namespace ShopApp.Integration;

public static class IntegrationEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("geo-httpsend", "GET", "/api/geo/10.1.2.3", "/api/geo/{ip}",
            "Integration.GeoClient.Lookup", "HttpClient.Send", Place.MinimalApi),
        ExpectedCulprit.Blocking("mainframe-socket", "GET", "/api/mainframe/stock/SKU-1001", "/api/mainframe/stock/{sku}",
            "Integration.MainframeGateway.Query", "NetworkStream.Read", Place.MinimalApi),
        // Offline, every partner host is localhost: resolving it is work in the resolver (reading /etc/hosts, ~80 µs),
        // not a wait on a DNS server. Diagnose names the call that holds the threads; whether the pool reads starving,
        // CPU-saturated or healthy depends on the machine's load, so the pool's verdict is not part of this case.
        ExpectedCulprit.Blocking("webhooks-dns", "GET", "/api/webhooks/verify?sender=localhost", "/api/webhooks/verify",
            "Integration.WebhookVerifier.IsAllowed", "Dns.GetHostEntry", Place.MinimalApi, pool: null),
        ExpectedCulprit.Blocking("thumbnails-process", "GET", "/api/thumbnails/4", "/api/thumbnails/{id}",
            "Integration.ImageTool.Run", "Process.WaitForExit", Place.MinimalApi),
    ];

    public static IServiceCollection AddIntegration(this IServiceCollection services) =>
        services
            .AddScoped<GeoLocator>()
            .AddSingleton<MainframeEmulator>()
            .AddHostedService(sp => sp.GetRequiredService<MainframeEmulator>())
            .AddSingleton<MainframeGateway>()
            .AddSingleton<WebhookVerifier>()
            .AddSingleton<ImageTool>()
            .AddScoped<ThumbnailService>();

    public static void MapIntegration(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/geo/{ip}", (string ip, GeoLocator geo) => Results.Ok(new { ip, country = geo.CountryOf(ip) }));
        app.MapGet("/api/mainframe/stock/{sku}", (string sku, MainframeGateway mainframe) => Results.Ok(new { sku, level = mainframe.Query("STOCK " + sku) }));
        app.MapGet("/api/webhooks/verify", (string sender, WebhookVerifier verifier) =>
            verifier.IsAllowed(sender) ? Results.Ok(new { sender, allowed = true }) : Results.Forbid());
        app.MapGet("/api/thumbnails/{id:int}", (int id, ThumbnailService thumbnails) => Results.Ok(thumbnails.Render(id)));
    }
}
