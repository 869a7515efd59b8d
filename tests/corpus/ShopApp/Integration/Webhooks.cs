using System.Net;
using Microsoft.Extensions.Options;
using ShopApp.Infrastructure;

namespace ShopApp.Integration;

/// <summary>A webhook is accepted when its sender resolves to an address of one of the registered partner hosts.</summary>
public sealed class WebhookVerifier(IOptions<ShopOptions> options)
{
    public bool IsAllowed(string sender)
    {
        var partnerAddresses = new HashSet<IPAddress>();
        foreach (var host in PartnerHosts())
        {
            partnerAddresses.UnionWith(Dns.GetHostEntry(host).AddressList);
        }
        return Dns.GetHostEntry(sender).AddressList.Any(partnerAddresses.Contains);
    }

    // In development the partner registry is this machine, once per registered partner.
    private IEnumerable<string> PartnerHosts() => Enumerable.Repeat("localhost", options.Value.WebhookSenders);
}

