using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Pricing;

public sealed record Quote(string Sku, string Currency, decimal Amount);

public sealed class QuoteService(FxRates fx)
{
    /// <summary>Kept synchronous for the kiosk API; the conversion runs on the pool to stay clear of any context.</summary>
    public Quote Quote(string sku, string currency)
    {
        var euros = ListPrice(sku);
        var amount = Task.Run(() => fx.ConvertAsync(euros, currency)).Result;
        return new Quote(sku, currency, amount);
    }

    /// <summary>Rates are cached per currency, so the rate is nearly always there already.</summary>
    public async Task<Quote> QuoteFastAsync(string sku, string currency)
    {
        var euros = ListPrice(sku);
        var rate = fx.RateAsync(currency);
        if (rate.IsCompletedSuccessfully)
        {
            return new Quote(sku, currency, Math.Round(euros * rate.Result, 2));
        }
        return new Quote(sku, currency, Math.Round(euros * await rate, 2));
    }

    /// <summary>The kiosk's price tag: the cached rate when the cache has it, the bank's otherwise.</summary>
    public async Task<Quote> QuoteTagAsync(string sku, string currency)
    {
        var euros = ListPrice(sku);
        var rate = fx.RateAsync(currency);
        if (!rate.IsCompletedSuccessfully)
        {
            return new Quote(sku, currency, Math.Round(euros * await rate, 2));
        }
        var cached = rate.Result;
        return new Quote(sku, currency, Math.Round(euros * cached, 2));
    }

    /// <summary>The bank answers within the kiosk's budget, or the quote falls back to yesterday's rate.</summary>
    public async Task<Quote> QuoteWithinAsync(string sku, string currency, TimeSpan budget)
    {
        var euros = ListPrice(sku);
        var rate = fx.RateAsync(currency);
        var fallback = Task.Delay(budget).ContinueWith(_ => fx.YesterdaysRate(currency), TaskScheduler.Default);
        var first = await Task.WhenAny(rate, fallback);
        var used = first == rate ? rate.Result : first.Result;
        return new Quote(sku, currency, Math.Round(euros * used, 2));
    }

    // The list price before the day's revenue-management adjustments.
    private static decimal ListPrice(string sku) => 20m + sku.Length % 10 * 5m;

    public string CurrencyFor(string country)
    {
        // Every storefront sells in euros until the multi-currency project ships; the lookup keeps the coming API's shape.
        var lookup = Task.FromResult(country == "GB" ? "GBP" : "EUR");
        return lookup.Result;
    }
}

/// <summary>Exchange rates from the bank's API, cached per currency for the day.</summary>
public sealed class FxRates(IOptions<BoxOfficeOptions> options)
{
    private readonly ConcurrentDictionary<string, Task<decimal>> _rates = new(StringComparer.Ordinal);

    public Task<decimal> RateAsync(string currency) => _rates.GetOrAdd(currency, FetchRateAsync);

    public decimal YesterdaysRate(string currency) => currency switch { "USD" => 1.07m, "GBP" => 0.85m, _ => 1m };

    public async Task<decimal> ConvertAsync(decimal euros, string currency)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return Math.Round(euros * await RateAsync(currency), 2);
    }

    private async Task<decimal> FetchRateAsync(string currency)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return currency switch { "USD" => 1.08m, "GBP" => 0.86m, _ => 1m };
    }
}
