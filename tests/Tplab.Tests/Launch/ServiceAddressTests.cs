using Tplab.Common;
using Tplab.Launch.Service;

namespace Tplab.Tests.Launch;

/// <summary>
/// Issue 26 §8: where the user's service will listen, chosen by tplab (no log line needed): a port 0 in the plan's
/// ASPNETCORE_URLS becomes a free port, a concrete address is kept, none set gives a free loopback port.
/// </summary>
public sealed class ServiceAddressTests
{
    [Fact]
    public void Choose_NothingSet_AFreeLoopbackPortPassedInAspNetCoreUrls()
    {
        var environment = new Dictionary<string, string>();

        var address = ServiceAddress.Choose(environment);

        Assert.Equal("127.0.0.1", address.Host);
        Assert.InRange(address.Port, 1, 65535);
        Assert.Equal($"http://127.0.0.1:{address.Port}", environment["ASPNETCORE_URLS"]);
    }

    [Theory]
    [InlineData("ASPNETCORE_URLS", "http://127.0.0.1:0", "http://127.0.0.1:{0}/", "http://127.0.0.1:{0}")]
    [InlineData("ASPNETCORE_URLS", "http://+:0;https://+:0", "http://127.0.0.1:{0}/", "http://+:{0};https://+:*")]
    [InlineData("URLS", "http://0.0.0.0:5080", "http://127.0.0.1:5080/", "http://0.0.0.0:5080")]
    [InlineData("ASPNETCORE_URLS", "http://localhost:5081/", "http://127.0.0.1:5081/", "http://localhost:5081/")]
    public void Choose_PlanSetsTheUrls_Port0IsReplacedAConcreteAddressKept(string key, string value, string expected, string written)
    {
        var environment = new Dictionary<string, string> { [key] = value };

        var address = ServiceAddress.Choose(environment);

        var port = address.Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal(string.Format(System.Globalization.CultureInfo.InvariantCulture, expected, port), address.ToString());
        var urls = environment[key];
        Assert.DoesNotContain(":0;", urls + ";", StringComparison.Ordinal);
        Assert.StartsWith(string.Format(System.Globalization.CultureInfo.InvariantCulture, written.Split('*')[0], port), urls, StringComparison.Ordinal);
    }

    [Fact]
    public void Choose_UrlsWithNoHttpAddress_IsOneUsageLineNamingTheField()
    {
        var error = Assert.Throws<TplabException>(() => ServiceAddress.Choose(new Dictionary<string, string> { ["ASPNETCORE_URLS"] = "unix:/tmp/app.sock" }));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.StartsWith("service.environment: ASPNETCORE_URLS=unix:/tmp/app.sock", error.Message, StringComparison.Ordinal);
    }
}
