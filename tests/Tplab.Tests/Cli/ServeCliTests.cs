using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli;

public sealed class ServeCliTests
{
    [Fact]
    public async Task PortInUse_OneLineSayingSo_NoStackFrames()
    {
        using var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        var port = ((IPEndPoint)taken.LocalEndpoint).Port.ToString(CultureInfo.InvariantCulture);

        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromSeconds(60), "serve", "--port", port, "--no-db");

        Assert.Equal(ExitCodes.Environment, code);
        // (--no-db's notice comes first) the error is the last line, and one line
        var line = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)[^1];
        Assert.StartsWith("tplab: the target service exited", line, StringComparison.Ordinal);
        Assert.Contains($"127.0.0.1:{port}: address already in use", line, StringComparison.Ordinal);
        Assert.DoesNotContain(" at ", line, StringComparison.Ordinal);
        Assert.DoesNotContain(".cs:line", line, StringComparison.Ordinal);
    }
}
