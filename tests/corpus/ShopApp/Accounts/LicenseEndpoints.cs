using ShopApp.Corpus;

namespace ShopApp.Accounts;

public static class AccountServices
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // The mutex lets one request through every 100 ms and holds the pool's 3 threads; the pool's queue holds the
        // first burst of requests and drains within about 3 s as the later ones wait for those threads elsewhere, while
        // a reader finishing every 100 ms keeps the runtime from injecting. Whether a window reads starving (a queue
        // over a second of work) or healthy depends on when it starts: the pool's word is not declared.
        ExpectedCulprit.Blocking("licenses-mutex", "GET", "/api/licenses/9", "/api/licenses/{id}",
            "Accounts.LicenseStore.Read", "WaitHandle.WaitOne", Place.MinimalApi, pool: null)
            with
            {
                Chain =
                [
                    new("GET /api/licenses/{id} handler", "Accounts/LicenseEndpoints.cs", "premium = licenses.IsPremium(id)"),
                    new("LicenseService.IsPremium", "Accounts/LicenseEndpoints.cs", "store.Read().Contains(customerId)"),
                    new("LicenseStore.Read", "Accounts/LicenseEndpoints.cs", "_fileMutex.WaitOne();"),
                ],
            },
    ];

    public static IServiceCollection AddAccounts(this IServiceCollection services) =>
        services.AddScoped<AuditFilter>().AddSingleton<AuditLog>().AddSingleton<LicenseStore>().AddSingleton<LicenseService>();

    public static void MapLicenses(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/licenses/{id:int}", (int id, LicenseService licenses) => Results.Ok(new { id, premium = licenses.IsPremium(id) }));
}

public sealed class LicenseService(LicenseStore store)
{
    public bool IsPremium(int customerId) => store.Read().Contains(customerId);
}

/// <summary>
/// Licenses are in a file shared with the licensing daemon; a mutex guards it while it is read (about 100 ms from
/// the network share), so readers queue behind each other.
/// </summary>
public sealed class LicenseStore : IDisposable
{
    private readonly Mutex _fileMutex = new();

    public IReadOnlySet<int> Read()
    {
        _fileMutex.WaitOne();
        try
        {
            return LicenseFile.Parse();
        }
        finally
        {
            _fileMutex.ReleaseMutex();
        }
    }

    public void Dispose() => _fileMutex.Dispose();
}

internal static class LicenseFile
{
    public static HashSet<int> Parse()
    {
        // Stands for reading the file from the network share.
        Thread.Sleep(100);
        return [1, 2, 3, 9];
    }
}
