using System.Diagnostics;
using System.Globalization;
using Tplab.Processes;
using Tplab.Launch;

namespace Tplab.Tests.Corpus;

/// <summary>
/// The corpus shop (tests/corpus/ShopApp) in a process of its own, started as a user starts an ASP.NET Core app:
/// <c>--urls</c>, its own runtimeconfig (default tiered compilation and PGO), its appsettings. The app knows nothing
/// of tplab, so it does not watch its parent: a small shell guardian does, as for the private PostgreSQL. The
/// guardian's stdin is the pipe <see cref="ChildProcess"/> holds; when the test host ends, even by kill -9, it kills the app.
/// </summary>
internal sealed class ShopAppProcess : IAsyncDisposable
{
    private const string AppPidPrefix = "shop-app-pid ";
    private const string ListeningPrefix = "Now listening on: ";

    // $1 dotnet, $2 app folder. The app's stdin is /dev/null: only the guardian holds the pipe.
    private const string GuardianScript = """
        "$1" exec --runtimeconfig "$2/ShopApp.runtimeconfig.json" --depsfile "$2/ShopApp.deps.json" "$2/ShopApp.dll" --urls http://127.0.0.1:0 </dev/null &
        app=$!
        echo "shop-app-pid $app"
        cat >/dev/null
        kill -9 "$app" 2>/dev/null
        """;

    private readonly ChildProcess _guardian;

    private ShopAppProcess(ChildProcess guardian, int processId, Uri baseAddress)
    {
        _guardian = guardian;
        ProcessId = processId;
        BaseAddress = baseAddress;
    }

    /// <summary>The app's own process id (not the guardian's), for diagnose.</summary>
    public int ProcessId { get; }

    /// <summary>http://127.0.0.1:port/</summary>
    public Uri BaseAddress { get; }

    public static async Task<ShopAppProcess> StartAsync(string? connectionString, CancellationToken ct = default, IReadOnlyDictionary<string, string>? settings = null)
    {
        var folder = AppContext.BaseDirectory;
        var info = new ProcessStartInfo("/bin/sh")
        {
            ArgumentList = { "-c", GuardianScript, "shop-app-guardian", DotnetHost.Path, folder.TrimEnd('/') },
            WorkingDirectory = folder,
        };
        info.Environment.Remove("ConnectionStrings__Shop");
        if (connectionString is not null)
        {
            info.Environment["ConnectionStrings__Shop"] = connectionString;
        }
        foreach (var (name, value) in settings ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }
        var guardian = ChildProcess.Start(info, "the corpus shop app");
        try
        {
            var pidLine = await guardian.WaitForLineAsync(l => l.StartsWith(AppPidPrefix, StringComparison.Ordinal), TimeSpan.FromSeconds(10), ct);
            var pid = int.Parse(pidLine[AppPidPrefix.Length..], CultureInfo.InvariantCulture);
            var listening = await guardian.WaitForLineAsync(l => l.Contains(ListeningPrefix, StringComparison.Ordinal), TimeSpan.FromSeconds(60), ct);
            var url = listening[(listening.IndexOf(ListeningPrefix, StringComparison.Ordinal) + ListeningPrefix.Length)..].Trim();
            return new ShopAppProcess(guardian, pid, new Uri(url.TrimEnd('/') + "/"));
        }
        catch
        {
            guardian.Kill();
            await guardian.DisposeAsync();
            throw;
        }
    }

    public Uri Url(string pathAndQuery) => new(BaseAddress, pathAndQuery.TrimStart('/'));

    /// <summary>Kills the app at once (a starving app can take long to shut down gracefully), then the guardian.</summary>
    public async ValueTask DisposeAsync()
    {
        try
        {
            using var app = Process.GetProcessById(ProcessId);
            app.Kill();
            using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            await app.WaitForExitAsync(patience.Token);
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or OperationCanceledException)
        {
        }
        await _guardian.StopAsync(TimeSpan.FromSeconds(5));
        await _guardian.DisposeAsync();
    }
}
