using ShopApp.Corpus;

namespace ShopApp.Fx;

public static class FxEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // One request runs the factory; every other one waits for the container's lock on the singleton, whose cause is
        // the factory's blocking call. The pool reads lock-contention once the watch has seen enough of those waits
        // begin, or starving: the requests that queued at the lock before the watch attached raise no event it can
        // count (the runtime raises ContentionStart when a wait begins), so the word depends on when it attached.
        ExpectedCulprit.Blocking("fx-di-factory", "GET", "/api/fx/convert?amount=10&to=USD", "/api/fx/convert",
            "Fx.FxRatesLoader.Load", "GetAwaiter().GetResult()", Place.DiFactory, pool: null)
            with
            {
                Chain =
                [
                    new("FxEndpoints.AddFx (lambda)", "Fx/FxEndpoints.cs", "services.AddSingleton<IFxRates>(sp => FxRatesLoader.Load("),
                    new("FxRatesLoader.Load", "Fx/FxEndpoints.cs", "var rates = DownloadAsync().GetAwaiter().GetResult();"),
                ],
                Service = "IFxRates",
            },
    ];

    public static IServiceCollection AddFx(this IServiceCollection services) =>
        services.AddSingleton<IFxRates>(sp => FxRatesLoader.Load(sp.GetRequiredService<ILogger<FxRates>>()));

    public static void MapFx(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/fx/convert", (decimal amount, string to, IFxRates rates) => Results.Ok(new { amount = rates.Convert(amount, to), to }));
}

public interface IFxRates
{
    decimal Convert(decimal euros, string currency);
}

public sealed class FxRates(IReadOnlyDictionary<string, decimal> rates) : IFxRates
{
    public decimal Convert(decimal euros, string currency) => Math.Round(euros * rates.GetValueOrDefault(currency, 1m), 2);
}

/// <summary>Loads the day's rates from the central bank's feed when the rates are first needed.</summary>
public static class FxRatesLoader
{
    public static FxRates Load(ILogger logger)
    {
        var rates = DownloadAsync().GetAwaiter().GetResult();
        logger.LogInformation("loaded {Count} exchange rates", rates.Count);
        return new FxRates(rates);
    }

    private static async Task<Dictionary<string, decimal>> DownloadAsync()
    {
        // The feed is slow on a cold start (several seconds).
        await Task.Delay(TimeSpan.FromSeconds(8));
        return new Dictionary<string, decimal>(StringComparer.Ordinal) { ["USD"] = 1.08m, ["GBP"] = 0.86m, ["JPY"] = 162.3m };
    }
}
