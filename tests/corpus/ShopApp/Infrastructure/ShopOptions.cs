namespace ShopApp.Infrastructure;

public sealed class ShopOptions
{
    /// <summary>Base address of the partner APIs; empty: this app's own stubs under /internal.</summary>
    public string? UpstreamUrl { get; set; }

    /// <summary>How long the partner APIs (and the stubs standing in for them) take.</summary>
    public int UpstreamDelayMs { get; set; } = 250;

    /// <summary>Hosts a webhook may come from.</summary>
    public int WebhookSenders { get; set; } = 400;
}
