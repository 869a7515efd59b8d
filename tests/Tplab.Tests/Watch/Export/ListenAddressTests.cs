using Tplab.Common;
using Tplab.Watch.Export;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Export;

/// <summary>Where --prometheus listens: loopback unless another address is named.</summary>
[ParallelSafe]
public sealed class ListenAddressTests
{
    [Theory]
    // text, host, port, HttpListener host
    [InlineData(":9464", "127.0.0.1", 9464, "127.0.0.1")]
    [InlineData("9464", "127.0.0.1", 9464, "127.0.0.1")]
    [InlineData("127.0.0.1:9464", "127.0.0.1", 9464, "127.0.0.1")]
    [InlineData("0.0.0.0:9100", "0.0.0.0", 9100, "+")]
    [InlineData("[::1]:9464", "::1", 9464, "[::1]")]
    [InlineData("localhost:9464", "localhost", 9464, "localhost")]
    public void Parse_Forms(string text, string host, int port, string listenerHost)
    {
        var address = ListenAddress.Parse(text);

        Assert.Equal(host, address.Host);
        Assert.Equal(port, address.Port);
        Assert.Equal(listenerHost, address.HttpListenerHost);
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
