using System.Net.Sockets;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Health;

/// <summary>Ready only when the mail relay takes connections: order confirmations must go out.</summary>
public sealed class MailRelayHealthCheck(IOptions<BoxOfficeOptions> options) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var relay = options.Value;
        var reachable = MailRelayProbe.CanConnect(relay.MailRelayHost, relay.MailRelayPort);
        return Task.FromResult(reachable ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy($"mail relay {relay.MailRelayHost}:{relay.MailRelayPort} refuses connections"));
    }
}

public static class MailRelayProbe
{
    public static bool CanConnect(string host, int port)
    {
        using var client = new TcpClient();
        try
        {
            client.Connect(host, port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
