using ShopApp.Corpus;

namespace ShopApp.Accounts;

public static class AccountServices
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("licenses-mutex", "GET", "/api/licenses/9", "/api/licenses/{id}",
            "Accounts.LicenseStore.Read", "WaitHandle.WaitOne", Place.MinimalApi),
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
/// Licenses are in a file shared with the licensing daemon; a mutex guards it. The sync thread holds the mutex
/// while it rewrites the file (about half a second).
/// </summary>
public sealed class LicenseStore
{
    private readonly Mutex _fileMutex = new();
    private HashSet<int> _premium = [1, 2, 3, 9];

    public LicenseStore()
    {
        var sync = new Thread(SyncLoop) { IsBackground = true, Name = "license sync" };
        sync.Start();
    }

    public IReadOnlySet<int> Read()
    {
        _fileMutex.WaitOne();
        try
        {
            return _premium;
        }
        finally
        {
            _fileMutex.ReleaseMutex();
        }
    }

    private void SyncLoop()
    {
        while (true)
        {
            _fileMutex.WaitOne();
            try
            {
                Thread.Sleep(500);
                _premium = [.. _premium];
            }
            finally
            {
                _fileMutex.ReleaseMutex();
            }
            Thread.Sleep(20);
        }
    }
}
