using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;

namespace ScanCases.Infrastructure;

/// <summary>This app's own address: the partner stand-ins under /internal are served by the box office itself.</summary>
public sealed class OwnAddress(IServer server)
{
    private Uri? _internal;

    public Uri Internal => _internal ??= Resolve();

    private Uri Resolve()
    {
        var own = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault()
            ?? throw new InvalidOperationException("the server has no address yet");
        return new Uri(own.Replace("0.0.0.0", "127.0.0.1", StringComparison.Ordinal).Replace("[::]", "127.0.0.1", StringComparison.Ordinal) + "/internal/");
    }
}
