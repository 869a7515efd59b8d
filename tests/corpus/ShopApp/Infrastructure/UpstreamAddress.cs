using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;

namespace ShopApp.Infrastructure;

/// <summary>Where the partner APIs are: configured, or this app's own stubs when run on its own.</summary>
public sealed class UpstreamAddress(IOptions<ShopOptions> options, IServer server)
{
    private Uri? _resolved;

    public Uri BaseUri => _resolved ??= Resolve();

    public static void Configure(IServiceProvider services, HttpClient http)
    {
        http.BaseAddress = services.GetRequiredService<UpstreamAddress>().BaseUri;
        http.Timeout = TimeSpan.FromSeconds(30);
    }

    private Uri Resolve()
    {
        if (!string.IsNullOrEmpty(options.Value.UpstreamUrl))
        {
            return new Uri(options.Value.UpstreamUrl);
        }
        var own = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault()
            ?? throw new InvalidOperationException("the server has no address yet");
        return new Uri(own.Replace("0.0.0.0", "127.0.0.1", StringComparison.Ordinal).Replace("[::]", "127.0.0.1", StringComparison.Ordinal) + "/internal/");
    }
}
