using ShopApp.Corpus;

namespace ShopApp.Integration;

public static class IntegrationEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("geo-httpsend", "GET", "/api/geo/10.1.2.3", "/api/geo/{ip}",
            "Integration.GeoClient.Lookup", "HttpClient.Send", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/geo/{ip} handler", "Integration/IntegrationEndpoints.cs", "country = geo.CountryOf(ip)"),
                    new("GeoLocator.CountryOf", "Integration/GeoClient.cs", "client.Lookup(ip)"),
                    new("GeoClient.Lookup", "Integration/GeoClient.cs", "using var response = http.Send(request);"),
                ],
            },
        ExpectedCulprit.Blocking("mainframe-socket", "GET", "/api/mainframe/stock/SKU-1001", "/api/mainframe/stock/{sku}",
            "Integration.MainframeGateway.Query", "NetworkStream.Read", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/mainframe/stock/{sku} handler", "Integration/IntegrationEndpoints.cs", "level = mainframe.Query(\"STOCK \" + sku)"),
                    new("MainframeGateway.Query", "Integration/Mainframe.cs", "var read = stream.Read(buffer);"),
                ],
            },
        // Offline, every partner host is localhost: resolving it is work in the resolver (reading /etc/hosts, ~80 µs),
        // not a wait on a DNS server. Diagnose names the call that holds the threads; whether the pool reads starving,
        // CPU-saturated or healthy depends on the machine's load, so the pool's verdict is not part of this case.
        ExpectedCulprit.Blocking("webhooks-dns", "GET", "/api/webhooks/verify?sender=localhost", "/api/webhooks/verify",
            "Integration.WebhookVerifier.IsAllowed", "Dns.GetHostEntry", Place.MinimalApi, pool: null)
            with
            {
                Chain =
                [
                    new("GET /api/webhooks/verify handler", "Integration/IntegrationEndpoints.cs", "verifier.IsAllowed(sender) ?"),
                    new("WebhookVerifier.IsAllowed", "Integration/Webhooks.cs", "partnerAddresses.UnionWith(Dns.GetHostEntry(host).AddressList);") { OrLine = "return Dns.GetHostEntry(sender)" },
                ],
            },
        ExpectedCulprit.Blocking("thumbnails-process", "GET", "/api/thumbnails/4", "/api/thumbnails/{id}",
            "Integration.ImageTool.Run", "Process.WaitForExit", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/thumbnails/{id} handler", "Integration/IntegrationEndpoints.cs", "Results.Ok(thumbnails.Render(id))"),
                    new("ThumbnailService.Render", "Integration/Thumbnails.cs", "var exitCode = tool.Run(\"0.3\");"),
                    new("ImageTool.Run", "Integration/Thumbnails.cs", "process.WaitForExit();"),
                ],
            },
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
