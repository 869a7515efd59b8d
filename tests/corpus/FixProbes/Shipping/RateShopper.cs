using System.Globalization;

namespace FixProbes.Shipping;

/// <summary>Asks every carrier at once and takes the cheapest; says how many failed when some did.</summary>
public sealed class RateShopper
{
    private static readonly string[] Carriers = ["post", "parcel", "freight"];

    public string Cheapest(decimal weight, int failing)
    {
        var rates = Carriers.Select((c, i) => RateAsync(c, weight, i < failing)).ToArray();
        try
        {
            Task.WaitAll(rates);
        }
        catch (AggregateException ae)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{ae.InnerExceptions.Count} carrier(s) failed");
        }
        return rates.Select(r => r.Result).Min().ToString("0.00", CultureInfo.InvariantCulture);
    }

    private static async Task<decimal> RateAsync(string carrier, decimal weight, bool fails)
    {
        await Task.Delay(5);
        return fails ? throw new HttpRequestException(carrier + " is unavailable") : (carrier.Length * weight) + 1m;
    }
}
