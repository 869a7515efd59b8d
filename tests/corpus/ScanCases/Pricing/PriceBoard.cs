using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Pricing;

/// <summary>The day's ticket prices per SKU, rebuilt from the revenue-management feed every few seconds.</summary>
public sealed class PriceBoard
{
    private readonly object _gate = new();
    private Dictionary<string, decimal> _prices = new(StringComparer.Ordinal);

    public decimal? PriceOf(string sku)
    {
        lock (_gate)
        {
            return _prices.TryGetValue(sku, out var price) ? price : null;
        }
    }

    /// <summary>Swaps in the next board; readers never see half of one.</summary>
    public void Rebuild(IReadOnlyList<(string Sku, decimal Price)> feed, TimeSpan pagePause)
    {
        lock (_gate)
        {
            var next = new Dictionary<string, decimal>(StringComparer.Ordinal);
            foreach (var page in feed.Chunk(50))
            {
                foreach (var (sku, price) in page)
                {
                    next[sku] = price;
                }
                // The feed's pages are rate-limited: wait before taking the next one.
                Thread.Sleep(pagePause);
            }
            _prices = next;
        }
    }
}

public sealed class PriceBoardRefresher(PriceBoard board, IOptions<BoxOfficeOptions> options) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var pause = TimeSpan.FromMilliseconds(options.Value.UpstreamDelayMs / 4.0);
        while (!stoppingToken.IsCancellationRequested)
        {
            var day = DateTime.UtcNow.DayOfYear;
            var feed = Enumerable.Range(1000, 200).Select(n => ($"SKU-{n}", 20m + (n + day) % 90)).ToList();
            board.Rebuild(feed, pause);
            await Task.Delay(TimeSpan.FromSeconds(2), stoppingToken);
        }
    }
}
