using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Partners;

/// <summary>Every 30 seconds, pulls the partners' price lists.</summary>
public sealed class PartnerSyncTimer(PartnerCatalog catalog) : IHostedService, IDisposable
{
    private Timer? _timer;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _timer = new Timer(Sync, null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30));
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _timer?.Change(Timeout.Infinite, Timeout.Infinite);
        return Task.CompletedTask;
    }

    public void Dispose() => _timer?.Dispose();

    private void Sync(object? state) => catalog.RefreshAsync().Wait();
}

public sealed class PartnerCatalog(IOptions<BoxOfficeOptions> options)
{
    public DateTimeOffset? LastSync { get; private set; }

    public async Task RefreshAsync()
    {
        await Task.Delay(options.Value.UpstreamDelayMs * 2);
        LastSync = DateTimeOffset.UtcNow;
    }
}
