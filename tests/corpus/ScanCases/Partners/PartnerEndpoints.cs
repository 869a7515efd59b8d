using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Partners;

public static class PartnerEndpoints
{
    public static IServiceCollection AddPartners(this IServiceCollection services)
    {
        services.AddSingleton<PartnerTokens>().AddTransient<PartnerAuthHandler>();
        services.AddHttpClient<PartnerClient>((sp, http) => http.BaseAddress = new Uri(sp.GetRequiredService<OwnAddress>().Internal, "partners/"))
            .AddHttpMessageHandler<PartnerAuthHandler>();
        services.AddSingleton<PartnerCatalog>().AddHostedService<PartnerSyncTimer>();
        return services;
    }

    public static void MapPartners(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/partners/{code}/availability", async (string code, PartnerClient partners, CancellationToken ct) =>
            Results.Ok(await partners.AvailabilityAsync(code, ct)));

    /// <summary>Stand-ins for the partner and PSP APIs, slow like the real ones, for running the box office alone.</summary>
    public static void MapPartnerStubs(this IEndpointRouteBuilder app)
    {
        var stubs = app.MapGroup("/internal");
        stubs.MapGet("/partners/{code}/availability", async (string code, HttpRequest request, IOptions<BoxOfficeOptions> options, CancellationToken ct) =>
        {
            await Task.Delay(options.Value.UpstreamDelayMs, ct);
            return request.Headers.Authorization.Count == 0 ? Results.Unauthorized() : Results.Ok(new Availability(code, 42));
        });
        stubs.MapGet("/psp/refunds/{id:int}", async (int id, IOptions<BoxOfficeOptions> options, CancellationToken ct) =>
        {
            await Task.Delay(options.Value.UpstreamDelayMs, ct);
            return id % 2 == 0 ? Results.Ok() : Results.Accepted();
        });
    }
}

public sealed record Availability(string Partner, int Seats);

/// <summary>Typed client of the resale partners' API.</summary>
public sealed class PartnerClient(HttpClient http)
{
    public async Task<Availability?> AvailabilityAsync(string partner, CancellationToken ct) =>
        await http.GetFromJsonAsync<Availability>($"{Uri.EscapeDataString(partner)}/availability", ct);
}
