using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using ShopApp.Corpus;
using ShopApp.Infrastructure;

namespace ShopApp.Quotes;

public static class QuoteEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // The board refreshes every 100 ms from a feed that answers in 250 ms: the timer's callbacks overlap, each one
        // holding a pool thread in .Result, and the requests queue behind them. No request runs that code: no endpoint.
        // Whether the pool reads starving or recovering over a window depends on the machine: not declared.
        ExpectedCulprit.Blocking("quotes-timer", "GET", "/api/quotes/EURUSD", "/api/quotes/{pair}",
            "Quotes.RateFeed.Latest", "Task.Result", Place.Timer, pool: null)
            with
            {
                Chain =
                [
                    new("QuoteBoard constructor (lambda)", "Quotes/QuoteEndpoints.cs", "_refresh = new Timer(_ => Refresh(), null, TimeSpan.Zero, RefreshEvery);"),
                    new("QuoteBoard.Refresh", "Quotes/QuoteEndpoints.cs", "foreach (var (pair, rate) in _feed.Latest())"),
                    new("RateFeed.Latest", "Quotes/QuoteEndpoints.cs", "public IReadOnlyDictionary<string, decimal> Latest() =>"),
                ],
            },
    ];

    public static IServiceCollection AddQuotes(this IServiceCollection services) =>
        services.AddSingleton<RateFeed>().AddSingleton<QuoteBoard>();

    public static void MapQuotes(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/quotes/{pair}", (string pair, QuoteBoard board) => Results.Ok(new { pair, rate = board.Get(pair) }));
}

/// <summary>The latest FX quotes, refreshed in the background so that reading one never waits for the feed.</summary>
public sealed class QuoteBoard : IDisposable
{
    private static readonly TimeSpan RefreshEvery = TimeSpan.FromMilliseconds(100);
    private readonly ConcurrentDictionary<string, decimal> _quotes = new(StringComparer.Ordinal);
    private readonly RateFeed _feed;
    private readonly Timer _refresh;

    public QuoteBoard(RateFeed feed)
    {
        _feed = feed;
        _refresh = new Timer(_ => Refresh(), null, TimeSpan.Zero, RefreshEvery);
    }

    public decimal Get(string pair) => _quotes.GetValueOrDefault(pair, 1m);

    public void Dispose() => _refresh.Dispose();

    private void Refresh()
    {
        foreach (var (pair, rate) in _feed.Latest())
        {
            _quotes[pair] = rate;
        }
    }
}

/// <summary>The rate feed's client.</summary>
public sealed class RateFeed(IOptions<ShopOptions> options)
{
    public IReadOnlyDictionary<string, decimal> Latest() => FetchAsync().Result;

    private async Task<Dictionary<string, decimal>> FetchAsync()
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return new Dictionary<string, decimal>(StringComparer.Ordinal) { ["EURUSD"] = 1.08m, ["EURGBP"] = 0.86m };
    }
}
