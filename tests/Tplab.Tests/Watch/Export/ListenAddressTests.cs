using Tplab.Common;
using Tplab.Watch.Export;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Export;

/// <summary>Where --prometheus listens: loopback unless another address is named.</summary>
[ParallelSafe]
public sealed class ListenAddressTests
{
    [Theory]
    // text, host, port
    [InlineData(":9464", "127.0.0.1", 9464)]
    [InlineData("9464", "127.0.0.1", 9464)]
    [InlineData("127.0.0.1:9464", "127.0.0.1", 9464)]
    [InlineData("0.0.0.0:9100", "0.0.0.0", 9100)]
    [InlineData("[::1]:9464", "::1", 9464)]
    [InlineData("[::]:9464", "::", 9464)]
    [InlineData("localhost:9464", "localhost", 9464)]
    public void Parse_Forms(string text, string host, int port)
    {
        var address = ListenAddress.Parse(text);

        Assert.Equal(host, address.Host);
        Assert.Equal(port, address.Port);
    }

    [Theory]
    // the documented forms answer on the families they name; [::] on both (docs/watch.md)
    [InlineData("[::1]", "::1")]
    [InlineData("[::]", "::1")]
    [InlineData("[::]", "127.0.0.1")]
    [InlineData("127.0.0.1", "127.0.0.1")]
    public async Task Listen_Address_ServesMetricsThere(string host, string client)
    {
        var free = new System.Net.Sockets.TcpListener(System.Net.IPAddress.IPv6Any, 0) { Server = { DualMode = true } };
        free.Start();
        var port = ((System.Net.IPEndPoint)free.LocalEndpoint).Port;
        free.Stop();
        using var exporter = PrometheusWatchExporter.Start(ListenAddress.Parse($"{host}:{port}"));
        using var http = new HttpClient();
        var url = client.Contains(':', StringComparison.Ordinal) ? $"http://[{client}]:{port}/metrics" : $"http://{client}:{port}/metrics";

        using var response = await http.GetAsync(new Uri(url));

        Assert.Equal(System.Net.HttpStatusCode.OK, response.StatusCode);
        Assert.StartsWith("text/plain", response.Content.Headers.ContentType?.MediaType, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("")]
    [InlineData(":0")]
    [InlineData(":70000")]
    [InlineData("host.example:9464")]
    [InlineData("127.0.0.1:x")]
    public void Parse_Bad_IsAUsageError(string text) =>
        Assert.Equal(ExitCodes.Usage, Assert.Throws<TplabException>(() => ListenAddress.Parse(text)).ExitCode);
}
