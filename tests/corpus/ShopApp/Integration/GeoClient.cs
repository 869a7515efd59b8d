using System.Text.Json;
using ShopApp.Infrastructure;

namespace ShopApp.Integration;

public sealed class GeoLocator(GeoClient client)
{
    public string CountryOf(string ip) => client.Lookup(ip)?.Country ?? "unknown";
}

/// <summary>Typed client of the geo-IP API, written synchronously when the shop was a console importer.</summary>
public sealed class GeoClient(HttpClient http)
{
    public GeoLocation? Lookup(string ip)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "geo/" + Uri.EscapeDataString(ip));
        using var response = http.Send(request);
        response.EnsureSuccessStatusCode();
        using var body = response.Content.ReadAsStream();
        return JsonSerializer.Deserialize<GeoLocation>(body, JsonSerializerOptions.Web);
    }
}
