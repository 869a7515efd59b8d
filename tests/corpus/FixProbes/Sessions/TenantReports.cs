namespace FixProbes.Sessions;

/// <summary>
/// A report per tenant. The tenant travels in a thread-static field, as the old data layer expected it, set at the
/// start of the request and read by the code below it.
/// </summary>
public sealed class TenantReports
{
    [ThreadStatic]
    private static string? t_tenant;

    public string Summary(string tenant)
    {
        t_tenant = tenant;
        LoadTenantSettings();
        return "report for " + t_tenant;
    }

    private static void LoadTenantSettings() => Thread.Sleep(10);
}
