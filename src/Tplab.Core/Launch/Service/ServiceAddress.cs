using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Launch.Service;

/// <summary>
/// Where the user's service listens, found without relying on its logs: tplab chooses the port and passes it in
/// ASPNETCORE_URLS (a port 0 there is replaced by a free one), then waits until the service answers there. An app
/// whose own configuration overrides ASPNETCORE_URLS (Kestrel endpoints, UseUrls) is found where it does listen: the
/// address in its "Now listening on:" line, else a port one of its processes listens on (/proc).
/// </summary>
internal static partial class ServiceAddress
{
    private const string ListeningPrefix = "Now listening on: ";
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(5) };

    /// <summary>
    /// The address the service will listen on, with ASPNETCORE_URLS (or URLS) in <paramref name="environment"/>
    /// made concrete: each port 0 replaced by a free loopback port; when neither is set, a free port on 127.0.0.1.
    /// </summary>
    public static Uri Choose(Dictionary<string, string> environment)
    {
        var key = environment.ContainsKey("ASPNETCORE_URLS") ? "ASPNETCORE_URLS" : environment.ContainsKey("URLS") ? "URLS" : null;
        if (key is null)
        {
            key = "ASPNETCORE_URLS";
            environment[key] = "http://127.0.0.1:0";
        }
        var urls = environment[key].Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(u => Url().Match(u) is { Success: true, Groups: var g } && g["port"].Value == "0"
                ? $"{g["scheme"].Value}://{g["host"].Value}:{FreePort().ToString(CultureInfo.InvariantCulture)}{g["rest"].Value}"
                : u)
            .ToList();
        environment[key] = string.Join(';', urls);
        var first = urls.Select(u => Url().Match(u)).FirstOrDefault(m => m.Success)
            ?? throw TplabException.Usage($"service.environment: {key}={environment[key]} names no http:// or https:// address; give one, or service.url");
        var scheme = first.Groups["scheme"].Value.ToLowerInvariant();
        var port = first.Groups["port"].Success ? first.Groups["port"].Value : scheme == "https" ? "443" : "80";
        return new Uri($"{scheme}://{Loopback(first.Groups["host"].Value)}:{port}/");
    }

    /// <summary>
    /// Waits until the service answers (at its ready path when it has one) and returns its base address:
    /// <paramref name="expected"/>, or where it says or is seen to listen when its own configuration moved it.
    /// </summary>
    public static async Task<Uri> ReadyAsync(GuardedCommand command, Uri expected, ServiceDefinition service, CancellationToken deadline, CancellationToken user)
    {
        var last = $"nothing answered at {expected}";
        while (true)
        {
            if (command.HasExited)
            {
                throw new TplabException(ExitCodes.Environment, $"the service {command.Exited} before it was ready: {command.Guardian.LastLines()}");
            }
            foreach (var address in Candidates(command, expected))
            {
                var url = new Uri(address, (service.ReadyPath ?? "/").TrimStart('/'));
                try
                {
                    using var response = await Http.GetAsync(url, deadline).ConfigureAwait(false);
                    if (service.ReadyPath is null || response.IsSuccessStatusCode)
                    {
                        return address;
                    }
                    last = $"{url} answered {(int)response.StatusCode}";
                }
                catch (HttpRequestException e)
                {
                    last = address == expected ? $"nothing answered at {expected}: {e.Message}" : last;
                }
                catch (OperationCanceledException) when (deadline.IsCancellationRequested)
                {
                    break;
                }
                catch (OperationCanceledException)
                {
                    last = $"{url} did not answer within {Http.Timeout.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s";
                }
            }
            if (deadline.IsCancellationRequested)
            {
                user.ThrowIfCancellationRequested();
                throw new TplabException(ExitCodes.Environment,
                    $"the service was not ready after {DurationText.Format(service.StartTimeout)} ({last}, and none of its processes listens on another port): {command.Guardian.LastLines()}");
            }
            await Task.Delay(100, CancellationToken.None).ConfigureAwait(false);
        }
    }

    // The expected address first; then the one ASP.NET Core logged, if it did; then every port the service's processes listen on.
    private static IEnumerable<Uri> Candidates(GuardedCommand command, Uri expected)
    {
        var seen = new HashSet<Uri> { expected };
        yield return expected;
        var logged = command.Guardian.RecentOutput.LastOrDefault(l => l.Contains(ListeningPrefix + "http", StringComparison.Ordinal));
        if (logged is not null && Url().Match(logged[(logged.IndexOf(ListeningPrefix, StringComparison.Ordinal) + ListeningPrefix.Length)..].Trim()) is { Success: true, Groups: var g }
            && new Uri($"{g["scheme"].Value}://{Loopback(g["host"].Value)}:{(g["port"].Success ? g["port"].Value : "80")}/") is var said && seen.Add(said))
        {
            yield return said;
        }
        foreach (var port in ListeningPorts.Of(command.Members()))
        {
            var found = new Uri($"{expected.Scheme}://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}/");
            if (seen.Add(found))
            {
                yield return found;
            }
        }
    }

    private static string Loopback(string host) => host is "+" or "*" or "0.0.0.0" or "[::]" or "localhost" or "" ? "127.0.0.1" : host;

    private static int FreePort()
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        socket.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)socket.LocalEndPoint!).Port;
    }

    [GeneratedRegex(@"^(?<scheme>[Hh][Tt][Tt][Pp][Ss]?)://(?<host>\[[^\]]*\]|[^:/;]*)(?::(?<port>\d+))?(?<rest>/[^;]*)?$")]
    private static partial Regex Url();
}
