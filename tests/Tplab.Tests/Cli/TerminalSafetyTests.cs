using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli;

/// <summary>
/// What reaches the user's terminal (issue 21 §8): a server's reply cannot write escape sequences to it, and a reader
/// that goes away (<c>| head</c>) ends the command quietly with 141 instead of leaving it running for no one.
/// </summary>
public sealed class TerminalSafetyTests
{
    [Theory]
    [InlineData("sockets")]
    [InlineData("httpclient")]
    public async Task Load_ServerHeaderWithEscapes_ReachesTheReportEscaped(string engine)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var stop = new CancellationTokenSource();
        var serving = ServeAsync(listener, "HTTP/1.1 200 OK\r\nServer: evil\u001b[2J\u001b]0;owned\u0007\r\nContent-Length: 0\r\n\r\n", stop.Token);
        var url = $"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port.ToString(CultureInfo.InvariantCulture)}/";

        var (code, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, "load", url, "-n", "3", "--format", "ab", "--engine", engine, "-q");
        await stop.CancelAsync();
        await serving;

        Assert.True(code is 0 or ExitCodes.Unreachable, $"exit {code}: {stderr}");
        var control = (stdout + stderr).Where(c => c != '\n' && TerminalText.NeedsEscape(c)).ToList();
        Assert.True(control.Count == 0, $"raw control characters reached the terminal: {string.Join(' ', control.Select(c => ((int)c).ToString("x2", CultureInfo.InvariantCulture)))}");
        // HttpClient drops a Server value it cannot parse; tplab's own parser keeps it, escaped.
        if (code == 0 && engine == "sockets")
        {
            Assert.Contains("evil\\x1b[2J\\x1b]0;owned\\x07", stdout, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Watch_ReaderGoesAway_EndsQuietlyWith141_NoProcessLeft()
    {
        var info = TplabCli.StartInfo("watch", "--format", "jsonl", "--interval", "0.25s", "--", DotnetHost.Path, DotnetHost.TargetFile(".dll"), "serve", "--port", "0");
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        using var watch = Process.Start(info)!;
        var stderr = watch.StandardError.ReadToEndAsync();
        for (var i = 0; i < 3; i++)
        {
            Assert.NotNull(await watch.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(60)));
        }
        var children = ProcessTree.Descendants(watch.Id);

        watch.StandardOutput.Close(); // as head does once it has its lines

        await watch.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(ExitCodes.OutputClosed, watch.ExitCode);
        Assert.DoesNotContain((await stderr).Split('\n'), l => l.StartsWith("tplab: ", StringComparison.Ordinal));
        Assert.True(await ProcessTable.EventuallyAsync(() => children.All(p => !ProcessTable.IsAlive(p)), TimeSpan.FromSeconds(20)));
    }

    private static async Task ServeAsync(TcpListener listener, string response, CancellationToken ct)
    {
        var bytes = Encoding.Latin1.GetBytes(response);
        try
        {
            while (!ct.IsCancellationRequested)
            {
                var client = await listener.AcceptTcpClientAsync(ct);
                _ = Task.Run(async () =>
                {
                    using (client)
                    {
                        var stream = client.GetStream();
                        var buffer = new byte[8192];
                        try
                        {
                            while (await stream.ReadAsync(buffer, ct) > 0)
                            {
                                await stream.WriteAsync(bytes, ct);
                            }
                        }
                        catch (Exception e) when (e is IOException or OperationCanceledException)
                        {
                        }
                    }
                }, ct);
            }
        }
        catch (OperationCanceledException)
        {
        }
    }
}
