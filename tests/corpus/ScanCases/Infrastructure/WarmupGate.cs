namespace ScanCases.Infrastructure;

public static class WarmupServices
{
    public static IServiceCollection AddWarmup(this IServiceCollection services) =>
        services.AddSingleton<WarmupGate>().AddHostedService<CatalogWarmup>();
}

/// <summary>Opens once the event catalogue is in memory; until then requests wait rather than fail.</summary>
public sealed class WarmupGate : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private readonly ManualResetEventSlim _ready = new(false);

    public bool WaitUntilReady() => _ready.Wait(Patience);

    public void Open() => _ready.Set();

    public void Dispose() => _ready.Dispose();
}

/// <summary>Holds requests at the door while the box office warms up.</summary>
public sealed class WarmupGateMiddleware(RequestDelegate next, WarmupGate gate)
{
    public Task InvokeAsync(HttpContext context)
    {
        if (!gate.WaitUntilReady())
        {
            context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            return Task.CompletedTask;
        }
        return next(context);
    }
}

/// <summary>Loads the event catalogue after start-up, then opens the gate.</summary>
public sealed class CatalogWarmup(WarmupGate gate, Events.EventCatalog catalog) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        await catalog.LoadAsync(stoppingToken);
        gate.Open();
    }
}
