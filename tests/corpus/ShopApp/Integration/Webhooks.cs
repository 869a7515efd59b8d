using System.Net;
using Microsoft.Extensions.Options;
using ShopApp.Infrastructure;

namespace ShopApp.Integration;

/// <summary>A webhook is accepted when its sender resolves to an address of one of the registered partner hosts.</summary>
public sealed class WebhookVerifier(IOptions<ShopOptions> options)
{
    public bool IsAllowed(string sender)
    {
        var senderAddresses = Dns.GetHostEntry(sender).AddressList;
        for (var partner = 0; partner < options.Value.WebhookSenders; partner++)
        {
            var partnerAddresses = Dns.GetHostEntry(PartnerHost(partner)).AddressList;
            if (partnerAddresses.Any(a => senderAddresses.Contains(a)) && partner == options.Value.WebhookSenders - 1)
            {
                return true;
            }
        }
        return false;
    }

    // The partner registry is empty in development: every partner is this machine.
    private static string PartnerHost(int partner) => partner >= 0 ? "localhost" : "partner" + partner;
}

public sealed class ThumbnailService(ImageTool tool)
{
    public object Render(int id)
    {
        var exitCode = tool.Run("0.3");
        return new { id, rendered = exitCode == 0 };
    }
}

/// <summary>Runs the image tool (stand-in: <c>sleep</c>) and waits for it.</summary>
public sealed class ImageTool
{
    public int Run(string arguments)
    {
        using var process = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("sleep", arguments)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
        })!;
        process.WaitForExit();
        return process.ExitCode;
    }
}
