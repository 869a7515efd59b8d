using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Tplab.Tests.Support;

/// <summary>
/// A NuGet feed on loopback that takes every request and answers none until it is disposed, as a stalled company feed
/// does: a <c>dotnet restore</c> that needs a package from it waits on it (NuGet's own timeout is 100 s) for as long as
/// a test needs to act while the restore runs. <see cref="Requested"/> completes with the first request's line, the
/// proof that a restore is under way and held. The restore gets empty package and HTTP-cache folders of the feed's own
/// (<see cref="Environment"/>), so it must ask the feed, and the machine's NuGet folders are neither read nor written.
/// </summary>
internal sealed class HeldPackageFeed : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly TaskCompletionSource<string> _requested = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<TcpClient> _clients = [];
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-held-feed-").FullName;

    public HeldPackageFeed()
    {
        _listener.Start();
        _ = AcceptAsync();
    }

    /// <summary>The first request's line (<c>GET /v3/index.json HTTP/1.1</c>), once one has come.</summary>
    public Task<string> Requested => _requested.Task;

    /// <summary>NuGet's global packages folder and HTTP cache, empty folders of this feed's, for the process that restores.</summary>
    public IReadOnlyDictionary<string, string> Environment => new Dictionary<string, string>
    {
        ["NUGET_PACKAGES"] = Path.Combine(_folder, "packages"),
        ["NUGET_HTTP_CACHE_PATH"] = Path.Combine(_folder, "http-cache"),
    };

    /// <summary>
    /// Makes the restore of <paramref name="project"/> (a project file under <paramref name="folder"/>) ask this feed, as
    /// a user's project with a package from their own feed does: a nuget.config in <paramref name="folder"/> that names
    /// this feed alone, and a package reference in the project.
    /// </summary>
    public void Serve(string folder, string project)
    {
        File.WriteAllText(Path.Combine(folder, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="held" value="http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/v3/index.json" allowInsecureConnections="true" />
              </packageSources>
            </configuration>
            """);
        var text = File.ReadAllText(project);
        var end = text.LastIndexOf("</Project>", StringComparison.Ordinal);
        Assert.True(end >= 0, $"{project} has no </Project>");
        File.WriteAllText(project, text[..end] + """
              <ItemGroup>
                <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
              </ItemGroup>

            """ + text[end..]);
    }

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Dispose();
        lock (_clients)
        {
            _clients.ForEach(c => c.Dispose());
        }
        _stop.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    private async Task AcceptAsync()
    {
        try
        {
            while (true)
            {
                var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                lock (_clients)
                {
                    _clients.Add(client);
                }
                _ = HoldAsync(client, _stop.Token);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
        {
        }
    }

    // Reads what the client sends and answers nothing: the connection stays open until the client or the feed ends.
    private async Task HoldAsync(TcpClient client, CancellationToken stop)
    {
        try
        {
            var stream = client.GetStream();
            var buffer = new byte[4096];
            for (int read; (read = await stream.ReadAsync(buffer, stop)) > 0;)
            {
                _requested.TrySetResult(Encoding.ASCII.GetString(buffer, 0, read).Split("\r\n")[0]);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or IOException or SocketException)
        {
        }
    }
}
