using System.Net.Sockets;
using Tplab.Common;
using Tplab.Load.Engine.Sockets;

namespace Tplab.Load.Engine;

/// <summary>Which engine sends a load's requests (<c>--engine</c>).</summary>
public enum EngineChoice
{
    /// <summary>The sockets engine when it can send the targets (Linux, plain http, one host and port), else HttpClient.</summary>
    Auto,

    /// <summary>The fast HTTP/1.1 engine over sockets; refused where it cannot run.</summary>
    Sockets,

    /// <summary>HttpClient (SocketsHttpHandler): TLS, any number of hosts, any OS.</summary>
    HttpClient,
}

/// <summary>Picks and builds the sender for a load, in one place.</summary>
public static class SenderFactory
{
    /// <summary>The sender <paramref name="options"/> ask for; a usage error when <c>--engine sockets</c> cannot send its targets.</summary>
    public static ISender Create(LoadOptions options, LoadClock clock)
    {
        ArgumentNullException.ThrowIfNull(options);
        var targets = options.EffectiveTargets;
        switch (options.Engine)
        {
            case EngineChoice.HttpClient:
                return new HttpSender(options, clock);
            case EngineChoice.Sockets when !SocketSender.CanSend(targets):
                throw TplabException.Usage("--engine sockets sends plain http:// to one host and port on Linux; use --engine httpclient (or auto) for https, several hosts or this OS");
            case EngineChoice.Sockets:
                return new SocketSender(options, clock);
            default:
                if (!SocketSender.CanSend(targets) || (options.AllowRemote && HasProxy()))
                {
                    return new HttpSender(options, clock);
                }
                try
                {
                    return new SocketSender(options, clock);
                }
                catch (SocketException)
                {
                    // The host name did not resolve: HttpClient reports that per request, as every other failure to connect.
                    return new HttpSender(options, clock);
                }
        }
    }

    // HttpClient honours the environment's proxy for remote targets; the sockets engine connects directly.
    private static bool HasProxy() =>
        new[] { "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy" }.Any(v => !string.IsNullOrEmpty(Environment.GetEnvironmentVariable(v)));
}
