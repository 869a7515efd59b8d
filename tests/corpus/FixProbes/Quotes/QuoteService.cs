namespace FixProbes.Quotes;

/// <summary>A quote from the price feed, or the list price when the feed times out.</summary>
public sealed class QuoteService(PriceFeed feed)
{
    public string Quote(string sku, string? scenario)
    {
        try
        {
            return "quote " + PriceReader.Read(feed.FetchAsync(sku, scenario));
        }
        catch (AggregateException ae) when (ae.InnerException is TimeoutException)
        {
            return "list price for " + sku;
        }
    }
}

internal static class PriceReader
{
    public static string Read(Task<decimal> price) => price.Result.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture);
}

public sealed class PriceFeed
{
    public async Task<decimal> FetchAsync(string sku, string? scenario)
    {
        await Task.Delay(5);
        return scenario switch
        {
            "timeout" => throw new TimeoutException("the price feed did not answer"),
            "outage" => throw new InvalidOperationException("the price feed is down"),
            _ => 10m + sku.Length,
        };
    }
}
