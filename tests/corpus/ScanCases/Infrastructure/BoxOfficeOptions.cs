namespace ScanCases.Infrastructure;

public sealed class BoxOfficeOptions
{
    /// <summary>How long the partner systems (and the stand-ins for them) take to answer.</summary>
    public int UpstreamDelayMs { get; set; } = 200;

    /// <summary>The mail relay the readiness check probes.</summary>
    public string MailRelayHost { get; set; } = "localhost";

    public int MailRelayPort { get; set; } = 2525;

    /// <summary>The key the back-office tools send in X-Api-Key.</summary>
    public string AdminApiKey { get; set; } = "";
}
