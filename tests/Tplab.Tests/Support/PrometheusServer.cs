using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Tplab.Processes;

namespace Tplab.Tests.Support;

/// <summary>
/// A real Prometheus (Debian's package) on loopback for one test: a scrape config it writes (one job, the given
/// target, a 1 s scrape interval), its own storage folder, ended with the test; queried through its HTTP API.
/// </summary>
internal sealed class PrometheusServer : IAsyncDisposable
{
    private readonly ChildProcess _process;
    private readonly string _folder;
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };

    private PrometheusServer(ChildProcess process, string folder, Uri url)
    {
        _process = process;
        _folder = folder;
        Url = url;
    }

    /// <summary>Prometheus's own address.</summary>
    public Uri Url { get; }

    /// <summary>Starts Prometheus scraping <paramref name="target"/> (host:port) every <paramref name="scrapeInterval"/>, and waits until it is ready.</summary>
    public static async Task<PrometheusServer> StartAsync(string target, TimeSpan scrapeInterval)
    {
        var folder = Directory.CreateTempSubdirectory("tplab-prometheus-").FullName;
        var seconds = scrapeInterval.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + "s";
        var config = Path.Combine(folder, "prometheus.yml");
        await File.WriteAllTextAsync(config, $"""
            global:
              scrape_interval: {seconds}
              evaluation_interval: {seconds}
            scrape_configs:
              - job_name: tplab-watch
                static_configs:
                  - targets: ['{target}']
            """);
        var port = Ports.Free();
        var info = new ProcessStartInfo(Preconditions.Prometheus!)
        {
            ArgumentList =
            {
                "--config.file=" + config, "--storage.tsdb.path=" + Path.Combine(folder, "data"),
                "--web.listen-address=127.0.0.1:" + port.ToString(CultureInfo.InvariantCulture), "--log.level=warn",
            },
        };
        var process = ChildProcess.Start(info, "prometheus", WhenTplabEnds.Kill);
        var server = new PrometheusServer(process, folder, new Uri($"http://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}/"));
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                using var ready = await server._http.GetAsync(new Uri(server.Url, "-/ready"));
                if (ready.IsSuccessStatusCode)
                {
                    return server;
                }
            }
            catch (HttpRequestException)
            {
            }
            if (deadline.Elapsed > TimeSpan.FromSeconds(20) || process.HasExited)
            {
                await server.DisposeAsync();
                throw new InvalidOperationException($"prometheus did not become ready: {process.LastLines(5)}");
            }
            await Task.Delay(200);
        }
    }

    /// <summary>An instant query's result: each series' labels and value.</summary>
    public async Task<IReadOnlyList<(IReadOnlyDictionary<string, string> Labels, double Value)>> QueryAsync(string promQl)
    {
        using var response = await _http.GetAsync(new Uri(Url, "api/v1/query?query=" + Uri.EscapeDataString(promQl)));
        using var doc = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var result = doc.RootElement.GetProperty("data").GetProperty("result");
        return result.EnumerateArray().Select(r => (
            (IReadOnlyDictionary<string, string>)r.GetProperty("metric").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString() ?? ""),
            Number(r.GetProperty("value")[1].GetString()!))).ToList();
    }

    // Prometheus writes infinities as +Inf/-Inf (the estimate is +Inf while nothing completes).
    private static double Number(string text) => text switch
    {
        "+Inf" => double.PositiveInfinity,
        "-Inf" => double.NegativeInfinity,
        _ => double.Parse(text, CultureInfo.InvariantCulture),
    };

    /// <summary>The scrape target's health as Prometheus sees it (<c>up</c>, last error).</summary>
    public async Task<string> TargetsAsync()
    {
        using var response = await _http.GetAsync(new Uri(Url, "api/v1/targets"));
        return await response.Content.ReadAsStringAsync();
    }

    public async ValueTask DisposeAsync()
    {
        _http.Dispose();
        await _process.DisposeAsync(TimeSpan.FromSeconds(5));
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
