using System.Globalization;

namespace FixProbes.Pricing;

/// <summary>Prices shown the way the market writes them: the market's culture is applied once its rates are loaded.</summary>
public sealed class PriceFormatter(MarketRates rates)
{
    public string Format(decimal amount, string market)
    {
        UseMarket(market);
        return (amount * rates.Rate(market)).ToString("N2", CultureInfo.CurrentCulture);
    }

    private void UseMarket(string market)
    {
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo(market == "de" ? "de-DE" : "en-US");
        rates.LoadAsync(market).Wait();
    }
}

public sealed class MarketRates
{
    public async Task LoadAsync(string market)
    {
        await Task.Delay(5);
        _ = market;
    }

    public decimal Rate(string market) => market == "de" ? 0.9m : 1m;
}
