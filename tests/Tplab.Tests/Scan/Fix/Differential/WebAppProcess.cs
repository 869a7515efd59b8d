using System.Diagnostics;
using Tplab.Launch;
using Tplab.Processes;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>
/// A built ASP.NET Core app in a process of its own, started as its team starts it in production (<c>dotnet app.dll
/// --urls</c>, the Production environment: a 500 has no developer page) on a loopback port the kernel picks. It knows
/// nothing of tplab: the watchdog <see cref="ChildProcess"/> gives it kills it when the test host ends, even by kill -9.
/// </summary>
internal sealed class WebAppProcess : IAsyncDisposable
{
    private const string ListeningPrefix = "Now listening on: ";
    private readonly ChildProcess _app;

    private WebAppProcess(ChildProcess app, Uri baseAddress)
    {
        _app = app;
        BaseAddress = baseAddress;
    }

    /// <summary>http://127.0.0.1:port/</summary>
    public Uri BaseAddress { get; }

    /// <summary>Whether it ended (crashed: nothing here stops it before the dispose).</summary>
    public bool HasExited => _app.HasExited;

    /// <summary>Its last lines of output, for a failure message.</summary>
    public string LastLines => _app.LastLines(5);

    public static async Task<WebAppProcess> StartAsync(string dll, string name, CancellationToken ct)
    {
        var info = new ProcessStartInfo(DotnetHost.Path)
        {
            ArgumentList = { "exec", dll, "--urls", "http://127.0.0.1:0" },
            WorkingDirectory = Path.GetDirectoryName(dll)!,
        };
        info.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        info.Environment["DOTNET_ENVIRONMENT"] = "Production";
        var app = ChildProcess.Start(info, name, WhenTplabEnds.Kill);
        try
        {
            var line = await app.WaitForLineAsync(l => l.Contains(ListeningPrefix, StringComparison.Ordinal), TimeSpan.FromSeconds(90), ct);
            var url = line[(line.IndexOf(ListeningPrefix, StringComparison.Ordinal) + ListeningPrefix.Length)..].Trim();
            return new WebAppProcess(app, new Uri(url.TrimEnd('/') + "/"));
        }
        catch
        {
            await app.DisposeAsync(TimeSpan.Zero);
            throw;
        }
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync(TimeSpan.FromSeconds(5));
}
