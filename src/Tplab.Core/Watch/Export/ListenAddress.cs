using System.Globalization;
using System.Net;
using Tplab.Common;

namespace Tplab.Watch.Export;

/// <summary>
/// Where <c>--prometheus</c> listens: <c>127.0.0.1:9464</c>, <c>[::1]:9464</c>, <c>0.0.0.0:9464</c> (every IPv4
/// interface), <c>[::]:9464</c> (every interface, IPv6 and IPv4), <c>localhost:9464</c>; a bare <c>:9464</c> or <c>9464</c> is loopback, since the series carry process
/// names and the user did not name another address.
/// </summary>
/// <param name="Host">The host as given, or 127.0.0.1.</param>
public sealed record ListenAddress(string Host, int Port)
{
    /// <summary>Parses the value of <c>--prometheus</c>; a usage error names what is wrong.</summary>
    public static ListenAddress Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var colon = text.LastIndexOf(':');
        var host = colon < 0 ? "" : text[..colon];
        var portText = colon < 0 ? text : text[(colon + 1)..];
        if (!int.TryParse(portText, NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port is < 1 or > 65535)
        {
            throw TplabException.Usage($"--prometheus must be [HOST]:PORT with a port from 1 to 65535 (e.g. 127.0.0.1:9464 or :9464), got '{text}'");
        }
        host = host.Trim('[', ']');
        if (host.Length == 0)
        {
            host = "127.0.0.1";
        }
        if (host != "localhost" && host != "*" && !IPAddress.TryParse(host, out _))
        {
            throw TplabException.Usage($"--prometheus: '{host}' is not an IP address or localhost (name an address of this machine, e.g. 127.0.0.1 or 0.0.0.0)");
        }
        return new ListenAddress(host, port);
    }

    /// <summary>HOST:PORT, IPv6 in brackets.</summary>
    public override string ToString() =>
        (Host.Contains(':', StringComparison.Ordinal) ? $"[{Host}]" : Host) + ":" + Port.ToString(CultureInfo.InvariantCulture);
}
